package io.kvscope.gui.model;

import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.analysis.impact.HourCount;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The per-hour timeline of a selection of findings, counted like the report's: distinct leaked
 * responses (counted cross-tenant leaks), distinct over-length admissions, distinct underruns.
 * {@code requests} is unknown from findings alone and left 0.
 */
public final class HourlySeries {

  private HourlySeries() {}

  public static List<HourCount> of(List<Finding> findings) {
    Map<Instant, List<Set<String>>> byHour = new TreeMap<>();
    for (Finding f : findings) {
      if (f.time() == null || f.requestId() == null) {
        continue;
      }
      int series = f.isCountedLeak() ? 0 : f.kind() == FindingKind.OVER_LENGTH_ACCEPTED ? 1
          : f.kind() == FindingKind.PREFILL_UNDERRUN ? 2 : -1;
      if (series < 0) {
        continue;
      }
      byHour.computeIfAbsent(f.time().truncatedTo(ChronoUnit.HOURS),
          h -> List.of(new HashSet<>(), new HashSet<>(), new HashSet<>())).get(series).add(f.requestId());
    }
    List<HourCount> hours = new ArrayList<>();
    byHour.forEach((hour, sets) -> hours.add(
        new HourCount(hour, sets.get(0).size(), sets.get(1).size(), sets.get(2).size(), 0)));
    return hours;
  }

}

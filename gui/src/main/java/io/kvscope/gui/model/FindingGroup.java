package io.kvscope.gui.model;

import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.analysis.impact.ImpactModel;
import io.kvscope.analysis.report.FindingOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One row of the findings table: every finding about one request (a leaked response usually has a
 * leak, an over-length admission, an underrun and a timing doubt), or every config finding about
 * one node epoch. The findings are in the report's severity order ({@link FindingOrder}), so the
 * first is the one that says the most.
 *
 * @param leak the request as the report counts it when it is a leaked response (its sources merged
 *     across findings, its foreign tokens), else null
 */
public record FindingGroup(List<Finding> findings, ImpactModel.Response leak) {

  public FindingGroup {
    if (findings.isEmpty()) {
      throw new IllegalArgumentException("a group needs at least one finding");
    }
    findings = findings.stream().sorted(FindingOrder.MOST_SEVERE_FIRST).toList();
  }

  /**
   * Groups {@code findings} by request (config findings by node epoch), keeping the order in which
   * each group's first finding came. {@code leaks} are the report's leaked responses by request id.
   */
  public static List<FindingGroup> of(Collection<Finding> findings, Map<String, ImpactModel.Response> leaks) {
    Map<String, List<Finding>> byKey = new LinkedHashMap<>();
    for (Finding f : findings) {
      byKey.computeIfAbsent(keyOf(f), k -> new ArrayList<>()).add(f);
    }
    List<FindingGroup> groups = new ArrayList<>(byKey.size());
    byKey.values().forEach(list -> {
      Finding any = list.get(0);
      boolean leaked = any.requestId() != null && list.stream().anyMatch(Finding::isCountedLeak);
      groups.add(new FindingGroup(list, leaked ? leaks.get(any.requestId()) : null));
    });
    return groups;
  }

  /** What findings share a row: the request, or for config findings the node and epoch start. */
  public static String keyOf(Finding f) {
    return f.requestId() != null ? "request " + f.requestId() : "epoch " + f.node() + " " + f.time();
  }

  /** The most severe finding: what opening the row shows first. */
  public Finding lead() {
    return findings.get(0);
  }

  public String key() {
    return keyOf(lead());
  }

  public boolean isConfig() {
    return lead().requestId() == null;
  }

  /** The most severe confidence among the findings (the order puts it first). */
  public Confidence confidence() {
    return lead().confidence();
  }

  public Instant time() {
    return findings.stream().map(Finding::time).filter(t -> t != null).min(Instant::compareTo).orElse(null);
  }

  public String requestId() {
    return lead().requestId();
  }

  public String tenant() {
    return lead().tenant();
  }

  public String node() {
    return lead().node();
  }

  public String decodeNode() {
    return findings.stream().map(Finding::decodeNode).filter(n -> n != null).findFirst().orElse(null);
  }

  /** Each kind once, most severe first. */
  public Set<FindingKind> kinds() {
    Set<FindingKind> kinds = new LinkedHashSet<>();
    findings.forEach(f -> kinds.add(f.kind()));
    return kinds;
  }

  /**
   * Whose data the response carried: the report's merged sources for a leaked response, else every
   * source any finding names (suspect or same-tenant evidence), each request once.
   */
  public List<Source> sources() {
    if (leak != null) {
      return List.copyOf(leak.sources().values());
    }
    Map<String, Source> merged = new LinkedHashMap<>();
    findings.forEach(f -> f.sources().forEach(s -> merged.putIfAbsent(s.requestId(), s)));
    return List.copyOf(merged.values());
  }

  /** Foreign tokens the report counts for this response, or null when it is not a leaked response. */
  public Long tokens() {
    return leak == null ? null : leak.tokens();
  }

  public boolean contains(Finding f) {
    return findings.contains(f);
  }
}

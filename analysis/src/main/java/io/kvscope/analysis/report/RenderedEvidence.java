package io.kvscope.analysis.report;

import io.kvscope.model.finding.Evidence;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Each finding's evidence as the report's files write it, worked out once for all the files of one
 * run: report.json writes its fields, findings.csv its compact JSON once a finding, findings.arrow
 * and findings.ndjson once a row (a finding with several sources has several rows). Mapping a
 * record through Jackson's tree ({@link ReportMapping#fields}) is most of what a cell costs, and
 * without this it was done up to four times over for the same evidence.
 *
 * <p>Keyed by the evidence object itself: the findings of a report are not copied while its files
 * are written, and equal evidence of two findings would render alike anyway. Not thread-safe; one
 * instance serves one run's writers, one after another.
 */
final class RenderedEvidence {

  private final Map<Evidence, Map<String, Object>> fields = new IdentityHashMap<>();
  private final Map<Evidence, String> compact = new IdentityHashMap<>();

  /** The evidence key by key in report.json's order, as {@link ReportJson#fields} gives it. */
  Map<String, Object> fields(Evidence evidence) {
    return fields.computeIfAbsent(evidence, ReportMapping::fields);
  }

  /** The evidence as one line of compact JSON, the text of the tables' evidence cells. */
  String compact(Evidence evidence) {
    return compact.computeIfAbsent(evidence, e -> JsonValues.compact(fields(e)));
  }
}

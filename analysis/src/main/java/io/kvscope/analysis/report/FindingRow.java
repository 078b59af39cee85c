package io.kvscope.analysis.report;

import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.Source;
import io.kvscope.analysis.impact.Report;
import java.io.IOException;
import java.util.List;

/**
 * One row of the findings table (findings.arrow, findings.ndjson): a finding and one of its
 * sources, or the finding alone when it has none (over-length, underrun, timing, config).
 *
 * @param source null for a finding without sources
 * @param sourceIndex the source's place in {@link Finding#sources()}, 0-based; -1 without a source
 * @param evidence the finding's evidence as compact JSON, the same text on every row of the finding
 */
record FindingRow(Finding finding, Source source, int sourceIndex, String evidence) {

  /** Receives the rows of a report one at a time, so writers never hold the whole table. */
  @FunctionalInterface
  interface Sink {
    void accept(FindingRow row) throws IOException;
  }

  FindingRow {
    if (finding == null || evidence == null || (source == null) != (sourceIndex < 0)) {
      throw new IllegalArgumentException("a row needs its finding and its evidence, and a source exactly when it has an index");
    }
  }

  /**
   * Every row of {@code report}, findings in report order, sources in finding order; each finding's
   * evidence rendered by {@code evidence}, once for all its rows.
   */
  static void forEach(Report report, RenderedEvidence evidence, Sink sink) throws IOException {
    for (Finding f : report.findings()) {
      List<Source> sources = f.sources();
      String json = evidence.compact(f.evidence());
      if (sources.isEmpty()) {
        sink.accept(new FindingRow(f, null, -1, json));
      }
      for (int i = 0; i < sources.size(); i++) {
        sink.accept(new FindingRow(f, sources.get(i), i, json));
      }
    }
  }
}

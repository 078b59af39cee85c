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
 */
record FindingRow(Finding finding, Source source, int sourceIndex) {

  /** Receives the rows of a report one at a time, so writers never hold the whole table. */
  @FunctionalInterface
  interface Sink {
    void accept(FindingRow row) throws IOException;
  }

  FindingRow {
    if (finding == null || (source == null) != (sourceIndex < 0)) {
      throw new IllegalArgumentException("a row needs its finding, and a source exactly when it has an index");
    }
  }

  /** Every row of {@code report}, findings in report order, sources in finding order. */
  static void forEach(Report report, Sink sink) throws IOException {
    for (Finding f : report.findings()) {
      List<Source> sources = f.sources();
      if (sources.isEmpty()) {
        sink.accept(new FindingRow(f, null, -1));
      }
      for (int i = 0; i < sources.size(); i++) {
        sink.accept(new FindingRow(f, sources.get(i), i));
      }
    }
  }
}

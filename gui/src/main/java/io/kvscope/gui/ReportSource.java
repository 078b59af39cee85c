package io.kvscope.gui;

import io.kvscope.analysis.impact.Coverage;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.analysis.report.ReportJson;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Where the workbench gets its {@link Report}: a value already computed, a report.json, or a
 * computation (running the analyzers over the index). It runs off the FX thread, with a progress
 * indicator and a Cancel button that {@link WorkProgress#isCancelled()} reports.
 */
@FunctionalInterface
public interface ReportSource {

  Report load(WorkProgress progress) throws Exception;

  static ReportSource of(Report report) {
    return progress -> report;
  }

  /** A report.json written by {@code kvscope analyze} / {@code kvscope report}. */
  static ReportSource file(Path reportJson) {
    return progress -> {
      progress.update("Reading " + reportJson.getFileName(), -1);
      return ReportJson.read(reportJson);
    };
  }

  /** No analysis yet: the index can still be searched and its config audited. */
  static ReportSource none(Path index) {
    return progress -> new Report(Report.REPORT_VERSION, Instant.now(), index.toString(),
        new Summary(0, 0, 0, 0, 0, 0, null, null, 0, 0, 0, 0, 0, 0), List.of(), List.of(), List.of(), List.of(),
        List.of(), Map.of(), new Coverage(List.of(), 0, 0, 0), Map.of());
  }
}

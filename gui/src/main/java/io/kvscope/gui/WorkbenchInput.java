package io.kvscope.gui;

import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.report.TraceLinks;
import java.nio.file.Path;

/**
 * Everything the workbench is started with: the typed options of {@code kvscope gui}.
 *
 * @param index the index directory
 * @param report where the report comes from (loaded or computed in the background)
 * @param bundles writes per-tenant notification bundles, or null to disable that export
 * @param screenshotDir when set, the workbench saves a PNG of each view there and closes
 * @param traceLinks links from a request to its trace in the operator's tracing tool
 */
public record WorkbenchInput(Path index, ReportSource report, TenantBundleExporter bundles, Path screenshotDir,
    TraceLinks traceLinks) {

  public WorkbenchInput {
    if (index == null || report == null) {
      throw new IllegalArgumentException("the workbench needs an index directory and a report source");
    }
    traceLinks = traceLinks == null ? TraceLinks.NONE : traceLinks;
  }

  public static WorkbenchInput of(Path index, ReportSource report) {
    return new WorkbenchInput(index, report, null, null, TraceLinks.NONE);
  }

  public static WorkbenchInput of(Path index, Report report) {
    return of(index, ReportSource.of(report));
  }

  public WorkbenchInput withBundles(TenantBundleExporter exporter) {
    return new WorkbenchInput(index, report, exporter, screenshotDir, traceLinks);
  }

  public WorkbenchInput withScreenshots(Path dir) {
    return new WorkbenchInput(index, report, bundles, dir, traceLinks);
  }

  public WorkbenchInput withTraceLinks(TraceLinks links) {
    return new WorkbenchInput(index, report, bundles, screenshotDir, links);
  }
}

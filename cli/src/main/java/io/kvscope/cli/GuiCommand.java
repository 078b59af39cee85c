package io.kvscope.cli;

import io.kvscope.analysis.Analysis;
import io.kvscope.analysis.report.TenantBundles;
import io.kvscope.gui.ReportSource;
import io.kvscope.gui.Workbench;
import io.kvscope.gui.WorkbenchInput;
import io.kvscope.index.IndexSearch;
import io.kvscope.ingest.Printable;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
    name = "gui",
    mixinStandardHelpOptions = true,
    description = "Open the investigation workbench on an index: timeline, findings, side-by-side evidence, "
        + "tenant impact and config audit. Without --report it analyzes the index first (in the background, "
        + "cancellable). Needs a display (under SSH or in CI: xvfb-run).")
final class GuiCommand implements Callable<Integer> {

  @Mixin
  IndexOption index;

  @Mixin
  AnalysisOptionsMixin analysis;

  @Mixin
  TraceUrlOption trace = new TraceUrlOption();

  @Option(names = "--report", paramLabel = "REPORT_JSON", description = "Open this report.json instead of analyzing.")
  Path report;

  @Option(names = "--screenshots", paramLabel = "DIR", description = "Save a PNG of each view into DIR and exit.")
  Path screenshots;

  @Override
  public Integer call() throws Exception {
    ReportSource source = report != null ? ReportSource.file(report) : progress -> {
      progress.update("Analyzing " + index.path, -1);
      try (IndexSearch search = IndexSearch.open(index.path)) {
        return Analysis.standard().run(search, analysis.toOptions(), (name, i, n) -> progress.update(name, (double) i / n));
      }
    };
    WorkbenchInput input = WorkbenchInput.of(index.path, source)
        .withBundles((r, tenant, dir, progress) -> TenantBundles.writeOne(r, tenant, dir)
            .orElseThrow(() -> new IllegalArgumentException(tenant + " is on neither side of a leak: no bundle")))
        .withTraceLinks(trace.links());
    if (screenshots != null) {
      input = input.withScreenshots(screenshots);
    }
    List<Path> written = Workbench.launch(input);
    written.forEach(p -> System.out.println("screenshot: " + Printable.text(p)));
    return ExitCodes.OK;
  }
}

package io.kvscope.cli;

import io.kvscope.analysis.Analysis;
import io.kvscope.analysis.impact.Report;
import io.kvscope.index.IndexSearch;
import io.kvscope.ingest.Printable;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description = {
        "Run every analysis over an index and write the reports.",
        "Writes report.json, findings.csv, report.md, report.html, findings.arrow and per-tenant",
        "bundles into --out (owner-only). Content is redacted unless --reveal."
    })
final class AnalyzeCommand implements Callable<Integer> {

  @Mixin
  IndexOption index;

  @Mixin
  AnalysisOptionsMixin analysis;

  @Option(names = {"-o", "--out"}, paramLabel = "DIR", defaultValue = "kvscope-report",
      description = "Where reports go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--reveal", description = "Include prompt/response text in reports (sensitive).")
  boolean reveal;

  @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    Report report = analyze(index.path, analysis, quiet, System.err);
    SummaryPrinter.print(report, System.out);
    ReportOutput.write(report, index.path, out, reveal, System.out);
    return KvScope.OK;
  }

  static Report analyze(Path indexDir, AnalysisOptionsMixin options, boolean quiet, PrintStream err) throws Exception {
    PrintStream terminal = ProgressBarReporter.interactive(quiet) ? ProgressBarReporter.terminal() : null;
    try (IndexSearch search = IndexSearch.open(indexDir)) {
      if (search.beingWritten()) {
        err.println("kvscope: an ingest is writing to " + Printable.text(indexDir) + "; this analysis reads its last"
            + " commit only, so files still being read are missing or partial. Analyze again when the ingest has ended.");
      }
      return Analysis.standard().run(search, options.toOptions(), (name, i, n) -> {
        if (terminal != null) {
          terminal.printf("\ranalyze [%d/%d] %-24s", i + 1, n, name);
          if (i + 1 == n) {
            terminal.println();
          }
        }
      });
    }
  }
}

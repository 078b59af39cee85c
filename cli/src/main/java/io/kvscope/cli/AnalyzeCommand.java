package io.kvscope.cli;

import io.kvscope.analysis.Analysis;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.analyzers.CandidatePairs;
import io.kvscope.analysis.MissingEvidence;
import io.kvscope.analysis.impact.Preliminary;
import io.kvscope.analysis.impact.Report;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.IngestSummary;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Printable;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "analyze",
    aliases = "analyse",
    mixinStandardHelpOptions = true,
    description = "Run every analysis over an index, print the exposure summary and write report.json, "
        + "findings.csv, report.md, report.html, findings.arrow, findings.ndjson and per-tenant bundles into --out "
        + "(owner-only). Content is redacted unless --reveal. Exits 2 when the index lacks the evidence "
        + "to say anything (no requests, none in --since/--until, no engine logs), reports written where "
        + "something could be analysed. Given files or folders, it first ingests them into --index, as "
        + "'kvscope ingest PATH... --index DIR' would, in the same process: the same index and reports for less "
        + "CPU (one JVM start and warm-up instead of two).")
final class AnalyzeCommand implements Callable<Integer> {

  @Parameters(paramLabel = "PATH", arity = "0..*",
      description = "Files or folders to ingest into --index before the analysis (optional; see kvscope ingest).")
  List<Path> inputs = List.of();

  @Mixin
  IndexOption index;

  @Mixin
  AnalysisOptionsMixin analysis;

  @Mixin
  IngestOptionsMixin ingestOptions;

  @Mixin
  NoticeOptions notice = new NoticeOptions();

  @Mixin
  TraceUrlOption trace = new TraceUrlOption();

  @Option(names = {"-o", "--out"}, paramLabel = "DIR", defaultValue = "kvscope-report",
      description = "Where reports go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--reveal", description = "Include prompt/response text in reports (sensitive).")
  boolean reveal;

  @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    if (!inputs.isEmpty()) {
      Integer refused = IngestCommand.refuse(inputs, index.path);
      if (refused != null) {
        return refused;
      }
    }
    return analyzeAndReport(index.path, inputs, ingestOptions.toOptions(this), analysis.toOptions(), CandidatePairs.INDEX_JOIN,
        new ReportDestination(out, reveal, notice.toDetails(), trace.links()), quiet);
  }

  /**
   * What {@code analyze} does on an index already built, for every command that ends as it does,
   * with the general join's candidates from {@code pairs}; returns the exit code.
   */
  static int analyzeAndReport(Path indexDir, AnalysisOptions options, CandidatePairs pairs, ReportDestination reports,
      boolean quiet) throws Exception {
    return analyzeAndReport(indexDir, List.of(), null, options, pairs, reports, quiet);
  }

  /**
   * What {@code analyze} does: the ingest of {@code inputs} into {@code indexDir} first when there
   * are any (one JVM, one bar over both steps), the analysis with its progress, the exposure
   * summary on stdout and the reports where {@code reports} says; returns the exit code.
   */
  private static int analyzeAndReport(Path indexDir, List<Path> inputs, IngestOptions ingestWith,
      AnalysisOptions options, CandidatePairs pairs, ReportDestination reports, boolean quiet) throws Exception {
    Analyzed analyzed;
    // One bar over both steps when there is an ingest; what it prints goes above the bar.
    try (ProgressBarReporter progress = new ProgressBarReporter(inputs.isEmpty() ? ProgressBarReporter.Steps.ANALYSIS
        : ProgressBarReporter.Steps.INGEST_THEN_ANALYSIS, System.err, quiet)) {
      if (!inputs.isEmpty()) {
        IngestSummary ingested = IngestCommand.ingest(indexDir, inputs, ingestWith, progress);
        progress.above(System.out, o -> {
          IngestCommand.print(ingested, o);
          NodeSummary.print(indexDir, o);
          o.println();
        });
      }
      analyzed = analyze(indexDir, options, pairs, showing(progress, System.out), System.err);
      progress.analysisEnded();
    }
    SummaryPrinter.print(analyzed.report(), System.out);
    ReportOutput.write(analyzed.report(), indexDir, reports, System.out);
    return analyzed.warnIncomplete(System.err) ? ExitCodes.ERROR : ExitCodes.OK;
  }

  /** A report and what the index lacked for it (gaps that still let the analysis run). */
  record Analyzed(Report report, List<MissingEvidence.Gap> gaps) {

    /** Says on {@code err} what is missing; true when anything is. */
    boolean warnIncomplete(PrintStream err) {
      gaps.forEach(gap -> err.println("kvscope: incomplete evidence: " + Printable.text(gap.message())));
      return !gaps.isEmpty();
    }
  }

  /**
   * The progress a person watches an analysis by: each analyzer on {@code bar}, and the preliminary
   * figures printed to {@code out} above it the moment the analysis knows them (before the text
   * analysis, which takes most of the time). Every command that ends in the exposure summary uses
   * it, whatever built the index before.
   */
  static Analysis.Progress showing(ProgressBarReporter bar, PrintStream out) {
    return new Analysis.Progress() {
      @Override
      public void analyzer(String name, int index, int count) {
        bar.analyzer(name, index, count);
      }

      @Override
      public void preliminary(Preliminary figures) {
        try {
          bar.above(out, o -> {
            SummaryPrinter.printPreliminary(figures, o);
            o.println();
          });
        } catch (java.io.IOException cannot) {
          throw new java.io.UncheckedIOException(cannot); // printing to a PrintStream does not throw
        }
      }
    };
  }

  /**
   * The analysis every analysing command runs. Refuses (an exception, exit 2) an index that holds
   * nothing to analyse in the requested range: an empty result there would read as "no leak".
   */
  static Analyzed analyze(Path indexDir, AnalysisOptions options, Analysis.Progress progress, PrintStream err)
      throws Exception {
    return analyze(indexDir, options, CandidatePairs.INDEX_JOIN, progress, err);
  }

  /** As {@link #analyze(Path, AnalysisOptions, Analysis.Progress, PrintStream)}, the general join's candidates from {@code pairs}. */
  static Analyzed analyze(Path indexDir, AnalysisOptions options, CandidatePairs pairs, Analysis.Progress progress,
      PrintStream err) throws Exception {
    try (IndexSearch search = IndexSearch.open(indexDir)) {
      if (search.beingWritten()) {
        err.println("kvscope: an ingest is writing to " + Printable.text(indexDir) + "; this analysis reads its last"
            + " commit only, so files still being read are missing or partial. Analyze again when the ingest has ended.");
      }
      List<MissingEvidence.Gap> gaps = MissingEvidence.of(search, options);
      String blocking = gaps.stream().filter(MissingEvidence.Gap::blocksAnalysis).map(MissingEvidence.Gap::message)
          .collect(Collectors.joining("; "));
      if (!blocking.isEmpty()) {
        throw new IllegalStateException("nothing to analyse: " + blocking);
      }
      Report report = Analysis.standard(pairs).run(search, options, progress);
      // The analysis module knows the files; only the command line knows which release it is.
      report = report.withEvidence(report.evidence().withVersion(KvScope.Version.text()));
      return new Analyzed(report, gaps);
    }
  }
}

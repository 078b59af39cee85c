package io.kvscope.cli;

import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.AuditVerdict;
import io.kvscope.analysis.RequestStarts;
import io.kvscope.index.IndexSearch;
import io.kvscope.ingest.Printable;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kvscope.ingest.json.PrintableJson;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    description = "Scheduled retroactive audit: analyze, list what fails the audit and what is only a warning, "
        + "exit 0 when clean, 1 on failing findings, 2 on error or when the index lacks the evidence to "
        + "judge (never 'clean' on missing logs). Failing: cross-tenant leaks, over-length prompts "
        + "accepted, prefill underruns (confirmed or probable) and vulnerable config windows. Warnings: "
        + "missing safeguards, unknown or unpatched engines with a safe pool, same-tenant reuse, suspects. "
        + "With --incremental, only what no earlier incremental audit reported fails (a window still open "
        + "always fails).")
final class AuditCommand implements Callable<Integer> {

  /** Logs can arrive late: an incremental run looks this far back before the last request it saw. */
  static final Duration LATE_LOG_MARGIN = Duration.ofDays(1);

  /** Failing items printed in full; the rest are counted (all are in the report with --out). */
  static final int MAX_LISTED = 50;

  @Mixin
  IndexOption index;

  @Mixin
  AnalysisOptionsMixin analysis;

  @Mixin
  NoticeOptions notice = new NoticeOptions();

  @Mixin
  TraceUrlOption trace = new TraceUrlOption();

  @Option(names = "--incremental",
      description = "Fail only on what earlier incremental audits did not report; look at requests from a day "
          + "before the last one seen (state in <index>/" + AuditState.FILE + ").")
  boolean incremental;

  @Option(names = {"-o", "--out"}, paramLabel = "DIR", description = "Also write the full reports of this audit here.")
  Path out;

  @Option(names = "--json", description = "Print the verdict as one JSON object (for schedulers) instead of text.")
  boolean json;

  @Option(names = {"-q", "--quiet"}, description = "Print only the last line (audit: clean, FAILED or cannot judge).")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    AuditState state = incremental ? AuditState.load(index.path) : AuditState.NONE;
    AnalysisOptions options = analysis.toOptions();
    if (incremental && analysis.since == null && state.watermark() != null) {
      options = options.withRange(state.watermark().minus(LATE_LOG_MARGIN), options.until());
    }
    AnalyzeCommand.Analyzed analyzed = AnalyzeCommand.analyze(index.path, options, io.kvscope.analysis.Analysis.Progress.NONE, System.err);
    AuditVerdict verdict = AuditVerdict.of(analyzed.report(), state.reported(), state.warned());
    // With --json, stdout holds the JSON object alone; everything else goes to stderr.
    PrintStream text = json ? System.err : System.out;
    if (!quiet && !json) {
      print(verdict, options, text);
    }
    if (out != null) {
      ReportOutput.write(analyzed.report(), index.path,
          new ReportDestination(out, false, notice.toDetails(), trace.links()), text);
    }
    if (analyzed.warnIncomplete(System.err)) {
      finish("cannot_judge", "audit: cannot judge: evidence missing (see above)", verdict, options);
      return ExitCodes.ERROR;
    }
    if (incremental) {
      Set<String> reported = new HashSet<>(state.reported());
      verdict.failing().forEach(item -> reported.add(item.id()));
      Set<String> warned = new HashSet<>(state.warned());
      verdict.warnings().forEach(item -> warned.add(item.id()));
      Instant watermark;
      try (IndexSearch search = IndexSearch.open(index.path)) {
        watermark = RequestStarts.last(search);
      }
      new AuditState(watermark == null ? state.watermark() : watermark, reported, warned).save(index.path);
    }
    finish(verdict.clean() ? "clean" : "failed",
        verdict.clean() ? "audit: clean" : "audit: FAILED, " + verdict.failingCount() + " failing", verdict, options);
    return verdict.clean() ? ExitCodes.OK : ExitCodes.FINDINGS;
  }

  /** The last line, or with --json the whole verdict as one object. */
  private void finish(String outcome, String line, AuditVerdict verdict, AnalysisOptions options) throws IOException {
    if (!json) {
      System.out.println(line);
      return;
    }
    try (JsonGenerator g = PrintableJson.configure(new JsonFactory().createGenerator(System.out))) {
      g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      g.writeStartObject();
      g.writeStringField("audit", outcome);
      g.writeStringField("since", options.since() == null ? null : options.since().toString());
      g.writeStringField("until", options.until() == null ? null : options.until().toString());
      g.writeStringField("failing_count", verdict.failingCount());
      items(g, "failing", verdict.failing());
      items(g, "warnings", verdict.warnings());
      g.writeEndObject();
    }
    System.out.println();
  }

  private static void items(JsonGenerator g, String name, List<AuditVerdict.Item> items) throws IOException {
    g.writeArrayFieldStart(name);
    for (AuditVerdict.Item item : items) {
      g.writeStartObject();
      g.writeStringField("id", item.id());
      g.writeStringField("time", item.time() == null ? null : item.time().toString());
      g.writeStringField("kind", item.kind());
      g.writeStringField("request_id", item.request());
      g.writeStringField("what", item.what());
      g.writeBooleanField("listed_before", item.warnedBefore());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private static void print(AuditVerdict verdict, AnalysisOptions options, PrintStream out) {
    out.printf("audit of requests from %s to %s: %s failing (%,d %s), %,d %s%n",
        options.since() == null ? "the start" : options.since(), options.until() == null ? "the end" : options.until(),
        verdict.failingCount(), verdict.failing().size(), verdict.failing().size() == 1 ? "item" : "items",
        verdict.warnings().size(), verdict.warnings().size() == 1 ? "warning" : "warnings");
    list("Failing", verdict.failing(), out);
    List<AuditVerdict.Item> fresh = verdict.newWarnings();
    list(fresh.size() == verdict.warnings().size() ? "Warnings" : "New warnings", fresh, out);
    int old = verdict.warnings().size() - fresh.size();
    if (old > 0) {
      out.printf("  %,d %s listed by earlier audits, not repeated (write them all with --out)%n", old,
          old == 1 ? "warning" : "warnings");
    }
  }

  private static void list(String heading, List<AuditVerdict.Item> items, PrintStream out) {
    if (items.isEmpty()) {
      return;
    }
    out.println(heading + ":");
    items.stream().limit(MAX_LISTED).forEach(item ->
        out.printf("  %-24s %s%n  %24s %s%n", item.time() == null ? "-" : item.time(), Printable.text(item.id()), "",
            Printable.text(item.what())));
    if (items.size() > MAX_LISTED) {
      out.printf("  ... and %,d more (write them all with --out)%n", items.size() - MAX_LISTED);
    }
  }
}

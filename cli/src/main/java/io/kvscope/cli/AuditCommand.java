package io.kvscope.cli;

import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import io.kvscope.index.OwnerOnly;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    description = {
        "Scheduled retroactive audit: analyze and exit 0 when clean, 1 on findings, 2 on error.",
        "Findings that fail the audit: cross-tenant leaks, over-length prompts accepted, prefill",
        "underruns, and vulnerable config windows. Missing safeguards, unpatched engines without",
        "an exploitable pool, same-tenant reuse and timing-only suspects are printed as warnings.",
        "With --incremental only requests newer than the last audit's are examined."
    })
final class AuditCommand implements Callable<Integer> {

  static final String STATE_FILE = "audit-watermark";

  @Mixin
  IndexOption index;

  @Mixin
  AnalysisOptionsMixin analysis;

  @Option(names = "--incremental", description = "Only look at requests newer than the last audit (state kept in the index dir).")
  boolean incremental;

  @Override
  public Integer call() throws Exception {
    Path state = index.path.resolve(STATE_FILE);
    if (incremental && Files.exists(state) && analysis.since == null) {
      analysis.since = Instant.parse(Files.readString(state, StandardCharsets.UTF_8).strip());
    }
    Report report = AnalyzeCommand.analyze(index.path, analysis, true, System.err);
    SummaryPrinter.printKinds(report, System.out);
    long failing = report.findings().stream().filter(f -> fails(f.kind()) && f.confidence().counts()).count()
        + report.windows().stream().filter(w -> w.kind() == Window.Kind.VULNERABLE).count();
    if (incremental) {
      Instant watermark = report.timeline().isEmpty() ? analysis.since
          : report.timeline().get(report.timeline().size() - 1).hour().plusSeconds(3600);
      if (watermark != null) {
        OwnerOnly.writeAtomically(state, watermark.toString().getBytes(StandardCharsets.UTF_8));
      }
    }
    System.out.println(failing == 0 ? "audit: clean" : "audit: " + failing + " failing findings");
    return failing == 0 ? KvScope.OK : KvScope.FINDINGS;
  }

  private static boolean fails(FindingKind kind) {
    return kind.isCrossTenantLeak() || kind == FindingKind.OVER_LENGTH_ACCEPTED || kind == FindingKind.PREFILL_UNDERRUN;
  }
}

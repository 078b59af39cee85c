package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.samples.truth.GroundTruth;
import io.kvscope.samples.truth.LeakTruth;
import io.kvscope.samples.truth.WindowTruth;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole pipeline, scored against the generator's ground truth: generate an incident, ingest it
 * with the real CLI, analyze it, and compare the report with truth.json. Nothing here comes from
 * the analyzer's own output except what is being checked.
 */
class GroundTruthTest {

  /** Node clocks are corrected by an estimate that includes gateway-to-engine latency. */
  static final Duration WINDOW_TOLERANCE = Duration.ofSeconds(2);

  @TempDir Path tmp;

  private Report runPipeline(String... generateArgs) throws Exception {
    Path incident = tmp.resolve("incident");
    Path index = tmp.resolve("index");
    Path reports = tmp.resolve("reports");
    String[] args = new String[generateArgs.length + 3];
    args[0] = "generate";
    args[1] = "--out";
    args[2] = incident.toString();
    System.arraycopy(generateArgs, 0, args, 3, generateArgs.length);
    assertThat(CliTestSupport.run(args).exitCode()).isZero();
    assertThat(CliTestSupport.run("ingest", incident.toString(), "--index", index.toString(), "--quiet").exitCode()).isZero();
    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", index.toString(), "--out", reports.toString(), "--quiet");
    assertThat(analyze.exitCode()).as(analyze.err()).isZero();
    return ReportJson.read(reports.resolve("report.json"));
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {2, 3})
  void reportMatchesTheGeneratorsTruth(long seed) throws Exception {
    Report report = runPipeline("--seed", Long.toString(seed), "--scale", "0.25x");
    GroundTruth truth = GroundTruth.load(tmp.resolve("incident/truth.json"));

    Set<String> leaked = requestsWith(report, FindingKind::isCrossTenantLeak);
    assertThat(leaked).as("cross-tenant leaked responses").isEqualTo(truth.leakedRequestIds());
    assertThat(requestsWith(report, k -> k == FindingKind.OVER_LENGTH_ACCEPTED))
        .as("over-length accepted").isEqualTo(truth.overLengthAcceptedIds());
    assertThat(requestsWith(report, k -> k == FindingKind.PREFILL_UNDERRUN))
        .as("prefill underruns").isEqualTo(truth.prefillUnderrunIds());

    var expected = truth.summary();
    var summary = report.summary();
    assertThat(summary.leakedResponses()).isEqualTo(expected.leakedResponses());
    assertThat(summary.recipientTenants()).isEqualTo(expected.recipientTenants());
    assertThat(summary.overLengthAccepted()).isEqualTo(expected.overLengthAccepted());
    assertThat(summary.prefillUnderruns()).isEqualTo(expected.prefillUnderruns());
    assertThat(summary.firstExposure()).isEqualTo(expected.firstExposure());
    assertThat(summary.lastExposure()).isEqualTo(expected.lastExposure());
    // Sure counts never exceed the truth, possible ones never fall short of it.
    assertThat(summary.victimTenants()).isLessThanOrEqualTo(expected.victimTenants());
    assertThat(summary.victimTenantsPossible()).isGreaterThanOrEqualTo(expected.victimTenants());
    assertThat(summary.sourceRequestsPossible()).isGreaterThanOrEqualTo(expected.sourceRequests());

    // Every true source is among the sources reported for its response; a sole one is always right.
    QualityScore score = QualityScore.of(truth, report);
    assertThat(score.trueSourcesNamed()).as("true sources named").isEqualTo(score.trueSources());
    assertThat(score.soleAttributionsRight()).as("sole attributions right").isEqualTo(score.soleAttributions());
    assertThat(score.confirmedFalsePositives()).isEmpty();
    assertThat(score.passes()).isTrue();

    List<Window> vulnerable = report.windows().stream().filter(w -> w.kind() == Window.Kind.VULNERABLE).toList();
    List<WindowTruth> truthWindows = truth.windows().stream().filter(w -> w.kind().equals("vulnerable")).toList();
    assertThat(vulnerable).hasSameSizeAs(truthWindows);
    for (WindowTruth w : truthWindows) {
      Window ours = vulnerable.stream().filter(v -> v.node().equals(w.node())).findFirst().orElseThrow();
      assertThat(Duration.between(w.start(), ours.start()).abs()).as("start of " + w.node()).isLessThan(WINDOW_TOLERANCE);
      if (w.end() == null) {
        assertThat(ours.open()).isTrue();
      } else {
        assertThat(Duration.between(w.end(), ours.end()).abs()).as("end of " + w.node()).isLessThan(WINDOW_TOLERANCE);
      }
    }
    Set<String> sameTenantOnly = truth.sameTenantReuse().stream().map(LeakTruth::requestId).collect(Collectors.toSet());
    assertThat(leaked.stream().filter(sameTenantOnly::contains)).as("same-tenant reuse is never cross-tenant").isEmpty();
  }

  @Test
  void aCleanFleetAuditsClean() throws Exception {
    Path incident = tmp.resolve("clean");
    Path index = tmp.resolve("clean-index");
    assertThat(CliTestSupport.run("generate", "--out", incident.toString(), "--seed", "5", "--scale", "0.25x", "--clean")
        .exitCode()).isZero();
    CliTestSupport.run("ingest", incident.toString(), "--index", index.toString(), "--quiet");

    CliTestSupport.Run audit = CliTestSupport.run("audit", "--index", index.toString());

    assertThat(audit.exitCode()).as(audit.out() + audit.err()).isZero();
    assertThat(audit.out()).contains("audit: clean");
  }

  private static Set<String> requestsWith(Report report, java.util.function.Predicate<FindingKind> kind) {
    return report.findings().stream().filter(f -> kind.test(f.kind()) && f.confidence().counts())
        .map(Finding::requestId).collect(Collectors.toCollection(HashSet::new));
  }
}

package io.kvscope.probe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.probe.canary.Exchange;
import io.kvscope.probe.canary.FastFirstTokenEvidence;
import io.kvscope.probe.canary.MarkerLeakEvidence;
import io.kvscope.probe.canary.RequestKind;
import io.kvscope.probe.enginedouble.DoubleConfig;
import io.kvscope.probe.enginedouble.EngineDouble;
import io.kvscope.probe.report.ProbeReportWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe against a loopback double of the incident's deployment: the buggy admission path must
 * fail with the leaked markers as evidence, the fixed one must pass. Ground truth comes from the
 * double (which codes each request really carried), not from the probe's own ledger.
 */
class ProbeAgainstDoubleTest {

  @TempDir
  Path out;

  @Test
  void theIncidentsAdmissionPathFailsWithLeakedMarkersAsEvidence() throws Exception {
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.BUGGY))) {
      ProbeResult r = Probe.run(DoubleProbes.against(d).build(), ProbeListener.NONE);

      assertThat(r.outcome()).isEqualTo(Outcome.FAIL);
      assertThat(r.outcome().exitCode()).isEqualTo(1);
      List<Exchange> overPool = r.canary().exchanges().stream().filter(e -> e.kind() == RequestKind.OVER_POOL).toList();
      assertThat(overPool).hasSize(2).allSatisfy(e -> {
        assertThat(e.status()).isEqualTo(200);
        assertThat(e.accepted()).isTrue();
      });
      assertThat(kinds(r, FindingKind.OVER_LENGTH_ACCEPTED)).extracting(Finding::requestId)
          .containsExactlyInAnyOrder("over-pool-1", "over-pool-2");
      // Past the context every engine refuses: chat with a 400, a /generate stream with an error event.
      assertThat(r.canary().exchanges().stream().filter(e -> e.kind() == RequestKind.OVER_CONTEXT))
          .hasSize(2).noneMatch(Exchange::accepted);

      List<Finding> leaks = kinds(r, FindingKind.CANARY_LEAK);
      assertThat(leaks).extracting(Finding::requestId).containsExactlyInAnyOrder("over-pool-1", "over-pool-2");
      String tag = "kvscope-probe-" + r.runTag() + "-";
      for (Finding leak : leaks) {
        List<MarkerLeakEvidence.Marker> markers = ((MarkerLeakEvidence) leak.evidence()).markers();
        assertThat(markers).isNotEmpty();
        for (MarkerLeakEvidence.Marker m : markers) {
          assertThat(m.givenTo()).isNotEqualTo(leak.requestId());
          // The double saw this code in the prompt of the request it is attributed to, not in the recipient's.
          assertThat(d.codesSentBy(tag + m.givenTo())).contains(m.marker());
          assertThat(d.codesSentBy(tag + leak.requestId())).doesNotContain(m.marker());
        }
      }
      assertThat(r.reasons()).anyMatch(reason -> reason.startsWith("prefill-0: KV pool below the context length (8192 < 16384)"));

      Path dir = ProbeReportWriter.write(r, out);
      JsonNode json = new ObjectMapper().readTree(dir.resolve("probe.json").toFile());
      assertThat(json.path("probe_report_version").asText()).isEqualTo("1.0");
      assertThat(json.path("outcome").asText()).isEqualTo("fail");
      JsonNode firstLeak = json.path("canary").path("leaks").get(0);
      assertThat(firstLeak.path("recipient").asText()).startsWith("over-pool-");
      assertThat(firstLeak.path("given_to").asText()).matches("(fill|normal)-\\d+");
      assertThat(Files.readString(dir.resolve("probe.md"))).contains(firstLeak.path("marker").asText());
      assertThat(Files.readString(dir.resolve("probe.html"))).contains(firstLeak.path("marker").asText());
      for (String f : List.of("probe.json", "probe.md", "probe.html")) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(f)))).isEqualTo("rw-------");
      }
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
    }
  }

  @Test
  void theFixedAdmissionPasses() throws Exception {
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.FIXED))) {
      ProbeResult r = Probe.run(DoubleProbes.against(d).build(), ProbeListener.NONE);

      assertThat(r.reasons()).isEmpty();
      assertThat(r.outcome()).isEqualTo(Outcome.PASS);
      assertThat(r.canary().exchanges().stream().filter(e -> e.kind().overLength()))
          .hasSize(4).allSatisfy(e -> assertThat(e.accepted()).isFalse());
      assertThat(r.canary().exchanges().stream().filter(e -> e.kind() == RequestKind.OVER_POOL))
          .allSatisfy(e -> assertThat(e.status()).isEqualTo(400));
      assertThat(r.canary().exchanges().stream().filter(e -> e.kind() == RequestKind.FILL)).allMatch(Exchange::accepted);
      assertThat(r.evidence().findings()).isEmpty();
      // The pool is still below the context: a warning on a fixed engine, not a failure.
      assertThat(r.warnings()).anyMatch(w -> w.startsWith("prefill-0: KV pool below the context length (8192 < 16384)"));
    }
  }

  @Test
  void switchingTheSameDoubleFromFixedToBuggyTurnsThePassIntoAFail() throws Exception {
    DoubleConfig fixed = DoubleConfig.incident(DoubleConfig.Admission.FIXED);
    try (EngineDouble d = EngineDouble.start(fixed)) {
      assertThat(Probe.run(DoubleProbes.against(d).build(), ProbeListener.NONE).outcome()).isEqualTo(Outcome.PASS);
      // Only the admission changes: the version still says fixed, so the config check alone passes;
      // the canary test is what catches it.
      d.reconfigure(fixed.withAdmission(DoubleConfig.Admission.BUGGY));
      ProbeResult r = Probe.run(DoubleProbes.against(d).build(), ProbeListener.NONE);
      assertThat(r.outcome()).isEqualTo(Outcome.FAIL);
      assertThat(r.nodes()).noneMatch(n -> n.exploitable());
      assertThat(kinds(r, FindingKind.CANARY_LEAK)).isNotEmpty();
    }
  }

  @Test
  void anOverLengthAnswerThatCameSoonerThanItsPrefillIsATimingFinding() throws Exception {
    // A prefill slow enough (2 ms a token) that first-token times stand out of a busy machine's
    // noise (CI shares its cores); short fill prompts keep the test to a few seconds.
    DoubleConfig slow = DoubleConfig.incident(DoubleConfig.Admission.BUGGY).withPrefillMicrosPerToken(2_000);
    try (EngineDouble d = EngineDouble.start(slow)) {
      ProbeOptions.Builder b = DoubleProbes.against(d);
      b.fillTokens = 400;
      b.overLengthRequests = 1;
      b.normalRequests = 2;
      ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);
      assertThat(r.evidence().fit().usable()).as(r.evidence().fit().why()).isTrue();
      assertThat(r.evidence().fit().slopeMsPerToken()).isGreaterThan(1.0);
      List<Finding> timing = kinds(r, FindingKind.TIMING_ANOMALY);
      assertThat(timing).extracting(Finding::requestId).containsExactly("over-pool-1");
      // The stub was answered long before a prefill of its length could have finished.
      FastFirstTokenEvidence fast = (FastFirstTokenEvidence) timing.get(0).evidence();
      assertThat(fast.ttftMs()).isLessThan(fast.leastPrefillMs() * r.options().timingFactor());
    }
  }

  @Test
  void aGenerateRouteThatIsNotThereTestsNothingAndIsSaidSo() throws Exception {
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.FIXED))) {
      d.stopServingGenerate();
      ProbeOptions.Builder b = DoubleProbes.against(d);
      b.api = io.kvscope.probe.canary.Api.Choice.BOTH;
      ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);
      // The chat path still tested both limits; the 404s are no refusals and no passes.
      assertThat(r.outcome()).isEqualTo(Outcome.PASS);
      assertThat(r.warnings()).anyMatch(w -> w.startsWith("the target does not serve /generate (HTTP 404)") && w.endsWith("use --api chat"));
      assertThat(r.warnings()).anyMatch(w -> w.startsWith("4 of 8 fill prompts were not served (200 x4, 404 x4)"));

      b.api = io.kvscope.probe.canary.Api.Choice.GENERATE;
      ProbeResult onlyGenerate = Probe.run(b.build(), ProbeListener.NONE);
      assertThat(onlyGenerate.outcome()).isEqualTo(Outcome.COULD_NOT_RUN);
      assertThat(onlyGenerate.reasons()).anyMatch(s -> s.startsWith("none of the 8 fill prompts was served"))
          .anyMatch(s -> s.equals("no prompt past a limit got an answer"));
    }
  }

  private static List<Finding> kinds(ProbeResult r, FindingKind kind) {
    return r.evidence().findings().stream().filter(f -> f.kind() == kind).toList();
  }
}

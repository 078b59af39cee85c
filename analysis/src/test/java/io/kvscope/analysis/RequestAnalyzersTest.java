package io.kvscope.analysis;

import static io.kvscope.analysis.TestIndex.at;
import static io.kvscope.analysis.TestIndex.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.analyzers.OverLengthAccepted;
import io.kvscope.analysis.analyzers.PrefillUnderrun;
import io.kvscope.analysis.analyzers.TimingAnomaly;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.ingest.record.NodeRole;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequestAnalyzersTest {

  @TempDir Path tmp;
  TestIndex index;

  /** Forty healthy requests: 4 chars per token, TTFT = 50 ms + 0.2 ms per uncached token. */
  @BeforeEach
  void healthyTraffic() {
    index = new TestIndex(tmp.resolve("index"))
        .epoch("prefill-0", NodeRole.PREFILL, "2026-08-20T00:00:00Z", 681_280, 1_048_576, "0.5.21")
        .epoch("decode-0", NodeRole.DECODE, "2026-08-20T00:00:00Z", 681_280, 1_048_576, "0.5.21");
    for (int i = 0; i < 40; i++) {
      long tokens = 1_000 + 500L * i;
      String start = String.format("2026-08-28T%02d:%02d:00Z", i / 4, (i % 4) * 10);
      index.served(request("ok-" + i, "tenant-" + (i % 5), start, tokens, 200)
          .promptText("x".repeat((int) (4 * tokens)))
          .firstTokenTime(at(start) + 50 + (long) (0.2 * tokens)).build(), tokens, false);
    }
  }

  private List<Finding> run(Analyzer analyzer) throws Exception {
    try (var search = index.open()) {
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults());
      List<Finding> findings = new ArrayList<>();
      analyzer.analyze(context, findings::add);
      return findings;
    }
  }

  @Test
  void overLengthAcceptedByCountByRejectionAndByImplausiblySmallGatewayCount() throws Exception {
    index.served(request("long", "acme", "2026-08-29T01:00:00Z", 700_000, 200).build(), 700_000, false);
    index.served(request("rejected", "acme", "2026-08-29T02:00:00Z", 20_000, 200).build(), 1, true);
    // The gateway reported the placeholder's single token for 2.8 MB of prompt.
    index.served(request("placeholder", "globex", "2026-08-29T03:00:00Z", 1, 200)
        .promptText("y".repeat(2_800_000)).build(), 1, false);
    index.served(request("refused", "acme", "2026-08-29T04:00:00Z", 900_000, 400).build(), 1, true);

    List<Finding> findings = run(new OverLengthAccepted());

    assertThat(findings).extracting(Finding::requestId)
        .containsExactlyInAnyOrder("gw-long", "gw-rejected", "gw-placeholder");
    Finding placeholder = findings.stream().filter(f -> f.requestId().equals("gw-placeholder")).findFirst().orElseThrow();
    assertThat(placeholder.confidence()).isEqualTo(Confidence.PROBABLE);
    Evidence.OverLength evidence = (Evidence.OverLength) placeholder.evidence();
    assertThat(evidence.promptTokensEstimated()).isEqualTo(700_000L);
    assertThat(evidence.limit()).isEqualTo(681_280L);
    assertThat(findings.stream().filter(f -> f.requestId().equals("gw-long")).findFirst().orElseThrow().confidence())
        .isEqualTo(Confidence.CONFIRMED);
  }

  /**
   * An hour of the prefill node's log is missing, so a request's prefill node is unknown; its
   * decode node holds a million tokens. Every prefill node of its deployment holds 681,280, so a
   * 700,000-token prompt was past the limit of whichever prefilled it.
   */
  @Test
  void overLengthWhereThePrefillNodeIsNotInTheLogsIsJudgedByTheDeploymentsPrefillNodes() throws Exception {
    index.epoch("decode-1", NodeRole.DECODE, "2026-08-20T00:00:00Z", 1_572_864, 1_048_576, "0.5.21");
    index.decodedOnly(request("gap", "acme", "2026-08-29T01:00:00Z", 700_000, 200).build(), "decode-1");
    index.decodedOnly(request("fits", "acme", "2026-08-29T02:00:00Z", 600_000, 200).build(), "decode-1");

    List<Finding> findings = run(new OverLengthAccepted());

    assertThat(findings).extracting(Finding::requestId).containsExactly("gw-gap");
    assertThat(((Evidence.OverLength) findings.get(0).evidence()).limit()).isEqualTo(681_280L);
  }

  @Test
  void underrunIsAStubPrefillNotAPrefixCacheHit() throws Exception {
    index.served(request("stub", "acme", "2026-08-29T01:00:00Z", 700_000, 200).build(), 1, true);
    index.served(request("cache-hit", "acme", "2026-08-29T02:00:00Z", 300_000, 200).cachedTokens(299_000L).build(),
        300_000, false);

    List<Finding> findings = run(new PrefillUnderrun());

    assertThat(findings).extracting(Finding::requestId).containsExactly("gw-stub");
    Evidence.Underrun evidence = (Evidence.Underrun) findings.get(0).evidence();
    assertThat(evidence.observedInputTokens()).isEqualTo(1L);
    assertThat(evidence.expectedInputTokens()).isEqualTo(700_000L);
  }

  @Test
  void timingAnomalyFlagsAFastFullPrefillButNotACacheHit() throws Exception {
    String fast = "2026-08-29T01:00:00Z";
    index.served(request("too-fast", "acme", fast, 150_000, 200).firstTokenTime(at(fast) + 90).build(), 150_000, false);
    String hit = "2026-08-29T02:00:00Z";
    index.served(request("cache-hit", "acme", hit, 150_000, 200).cachedTokens(149_000L)
        .firstTokenTime(at(hit) + 90).build(), 150_000, false);

    List<Finding> findings = run(new TimingAnomaly());

    assertThat(findings).extracting(Finding::requestId).containsExactly("gw-too-fast");
    assertThat(findings.get(0).confidence()).isEqualTo(Confidence.SUSPECT);
    assertThat(((Evidence.Timing) findings.get(0).evidence()).expectedTtftMs()).isBetween(29_000L, 31_000L);
  }
}

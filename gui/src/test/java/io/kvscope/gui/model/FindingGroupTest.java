package io.kvscope.gui.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.analysis.impact.ImpactModel;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FindingGroupTest {

  static final Instant T = Instant.parse("2026-08-28T10:00:00Z");

  @Test
  void aRequestsFindingsShareOneRowLedByTheMostSevereAndConfigFindingsShareTheirEpochs() {
    List<Finding> findings = List.of(
        finding("timing:r1", FindingKind.TIMING_ANOMALY, Confidence.SUSPECT, "r1", T),
        finding("under:r1", FindingKind.PREFILL_UNDERRUN, Confidence.CONFIRMED, "r1", T),
        leak("ident:r1", FindingKind.RARE_IDENTIFIER_LEAK, Confidence.PROBABLE, new Source("s1", null, "acme", 12, List.of(), Attribution.SOLE),
            new Source("s2", null, "initech", 3, List.of(), Attribution.SOLE)),
        leak("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, new Source("s1", null, "acme", 40, List.of(), Attribution.SOLE)),
        finding("over:r2", FindingKind.OVER_LENGTH_ACCEPTED, Confidence.CONFIRMED, "r2", T.plusSeconds(60)),
        finding("pool:p0", FindingKind.CONFIG_POOL_BELOW_CONTEXT, Confidence.CONFIRMED, null, T.minusSeconds(3600)),
        finding("safeguard:p0", FindingKind.CONFIG_MISSING_SAFEGUARD, Confidence.CONFIRMED, null, T.minusSeconds(3600)),
        finding("safeguard:p0-later", FindingKind.CONFIG_MISSING_SAFEGUARD, Confidence.CONFIRMED, null, T));

    List<FindingGroup> groups = FindingGroup.of(findings, ImpactModel.leakedResponses(findings));

    assertThat(groups).extracting(FindingGroup::key)
        .containsExactly("request r1", "request r2", "epoch p0 " + T.minusSeconds(3600), "epoch p0 " + T);
    FindingGroup r1 = groups.get(0);
    assertThat(r1.findings()).extracting(Finding::id).containsExactly("overlap:r1", "under:r1", "ident:r1", "timing:r1");
    assertThat(r1.confidence()).isEqualTo(Confidence.CONFIRMED);
    // The report's figures for the response: sources merged across findings, 40 + 3 tokens.
    assertThat(r1.sources()).extracting(Source::requestId).containsExactlyInAnyOrder("s1", "s2");
    assertThat(r1.tokens()).isEqualTo(43);
    assertThat(groups.get(1).tokens()).as("not a leaked response").isNull();
    assertThat(groups.get(2).isConfig()).isTrue();
    assertThat(groups.get(2).findings()).hasSize(2);
  }

  private static Finding finding(String id, FindingKind kind, Confidence confidence, String request, Instant t) {
    return new Finding(id, kind, confidence, request, null, request == null ? null : "globex", t,
        request == null ? "p0" : "prefill-0", request == null ? null : "decode-0", List.of(), Map.of());
  }

  private static Finding leak(String id, FindingKind kind, Confidence confidence, Source... sources) {
    return new Finding(id, kind, confidence, "r1", null, "globex", T, "prefill-0", "decode-0", List.of(sources), Map.of());
  }
}

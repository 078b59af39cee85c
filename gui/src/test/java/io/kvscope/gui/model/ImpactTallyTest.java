package io.kvscope.gui.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.finding.Attribution;
import io.kvscope.analysis.finding.Confidence;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.analysis.finding.Source;
import io.kvscope.analysis.impact.HourCount;
import io.kvscope.gui.IncidentFixture;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Recounts from findings against the incident's ground truth (who leaked to whom, known by construction). */
class ImpactTallyTest {

  @TempDir static Path dir;
  static IncidentFixture.Incident incident;

  @BeforeAll
  static void write() throws Exception {
    incident = IncidentFixture.write(dir.resolve("index"), 60, 7L);
  }

  @Test
  void tallyOfAllFindingsEqualsTheGroundTruthTenantCountsAndMatrix() {
    Impact impact = ImpactTally.of(incident.report().findings());

    assertThat(impact.tenants()).containsExactlyElementsOf(incident.report().tenants());
    assertThat(impact.matrix()).containsExactlyInAnyOrderElementsOf(incident.report().matrix());
  }

  @Test
  void hourlySeriesOfAllFindingsEqualsTheGroundTruthTimeline() {
    List<HourCount> hours = HourlySeries.of(incident.report().findings());

    assertThat(hours).hasSameSizeAs(incident.report().timeline());
    for (int i = 0; i < hours.size(); i++) {
      HourCount got = hours.get(i);
      HourCount want = incident.report().timeline().get(i);
      assertThat(List.of(got.hour(), got.exposures(), got.overLengthAccepted(), got.prefillUnderruns()))
          .isEqualTo(List.of(want.hour(), want.exposures(), want.overLengthAccepted(), want.prefillUnderruns()));
    }
  }

  @Test
  void aResponseNamedByTwoFindingsCountsOnceAndSuspectOrSameTenantDoNotCount() {
    Instant t = Instant.parse("2026-08-28T10:00:00Z");
    Source fromAcme = new Source("src-1", null, "acme", 40, List.of(), Attribution.SOLE);
    List<Finding> findings = new ArrayList<>(List.of(
        leak("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r1", "globex", t, fromAcme),
        leak("ident:r1", FindingKind.RARE_IDENTIFIER_LEAK, Confidence.PROBABLE, "r1", "globex", t,
            new Source("src-1", null, "acme", 12, List.of(), Attribution.SOLE)),
        leak("suspect:r2", FindingKind.CROSS_TENANT_OVERLAP, Confidence.SUSPECT, "r2", "globex", t, fromAcme),
        leak("self:r3", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r3", "acme", t, fromAcme)));

    Impact impact = ImpactTally.of(findings);

    assertThat(impact.tenants()).hasSize(2);
    var acme = impact.tenants().get(0);
    assertThat(acme.tenant()).isEqualTo("acme");
    assertThat(acme.asVictim().requests()).isEqualTo(1);
    assertThat(acme.asVictim().recipients()).isEqualTo(1);
    assertThat(acme.asVictim().tokens()).isEqualTo(40);
    assertThat(acme.asRecipient().responses()).isZero();
    assertThat(impact.matrix()).singleElement().satisfies(c -> {
      assertThat(c.sourceTenant()).isEqualTo("acme");
      assertThat(c.recipientTenant()).isEqualTo("globex");
      assertThat(c.responses()).isEqualTo(1);
      assertThat(c.tokens()).isEqualTo(40);
    });
  }

  @Test
  void theFilterMatchesTenantsOnEitherSideNodesOnEitherRoleAndSearchHitsByIdOrRid() {
    Instant t = Instant.parse("2026-08-28T10:00:00Z");
    Finding f = new Finding("x", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "chatcmpl-1", "1", "globex", t,
        "prefill-0", "decode-3", List.of(new Source("s", null, "acme", 5, List.of(), Attribution.SOLE)), Map.of());

    assertThat(FindingFilter.NONE.withTenant("acme").test(f)).isTrue();
    assertThat(FindingFilter.NONE.withTenant("globex").test(f)).isTrue();
    assertThat(FindingFilter.NONE.withTenant("initech").test(f)).isFalse();
    assertThat(FindingFilter.NONE.withNode("decode-3").test(f)).isTrue();
    assertThat(FindingFilter.NONE.withKind(FindingKind.CANARY_LEAK).test(f)).isFalse();
    assertThat(FindingFilter.NONE.withRange(TimeRange.hoursCovering(t, t)).test(f)).isTrue();
    assertThat(FindingFilter.NONE.withRange(new TimeRange(t.plusSeconds(1), t.plusSeconds(60))).test(f)).isFalse();
    assertThat(FindingFilter.NONE.withSearch("q", java.util.Set.of("1")).test(f)).isTrue();
    assertThat(FindingFilter.NONE.withSearch("q", java.util.Set.of()).test(f)).isFalse();
    assertThat(FindingFilter.NONE.withTenant(" ").isNeutral()).isTrue();
  }

  /**
   * Two requests of two tenants held the leaked passage: each is a candidate. The tenant table
   * shows each victim as 0 for sure and up to 1, the matrix likewise; the recipient received the
   * passage's tokens once.
   */
  @Test
  void candidateSourcesCountAsPossibleNotSure() {
    Instant t = Instant.parse("2026-08-28T10:00:00Z");
    Finding f = new Finding("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r1", null, "globex",
        t, "p", "d", List.of(new Source("a-1", null, "acme", 30, List.of(), Attribution.CANDIDATE),
            new Source("i-1", null, "initech", 30, List.of(), Attribution.CANDIDATE)), Map.of());

    Impact impact = ImpactTally.of(List.of(f));

    var acme = impact.tenants().stream().filter(x -> x.tenant().equals("acme")).findFirst().orElseThrow();
    assertThat(acme.asVictim().requests()).isZero();
    assertThat(acme.asVictim().requestsPossible()).isEqualTo(1);
    assertThat(io.kvscope.gui.view.Formats.range(acme.asVictim().requests(), acme.asVictim().requestsPossible()))
        .isEqualTo("0\u20131");
    var globex = impact.tenants().stream().filter(x -> x.tenant().equals("globex")).findFirst().orElseThrow();
    assertThat(globex.asRecipient().sources()).isZero();
    assertThat(globex.asRecipient().sourcesPossible()).isEqualTo(2);
    assertThat(globex.asRecipient().tokens()).isEqualTo(30);
    assertThat(impact.matrix()).allSatisfy(c -> {
      assertThat(c.responses()).isZero();
      assertThat(c.responsesPossible()).isEqualTo(1);
    });
  }

  private static Finding leak(String id, FindingKind kind, Confidence confidence, String request, String tenant,
      Instant t, Source source) {
    return new Finding(id, kind, confidence, request, null, tenant, t, "p", "d", List.of(source), Map.of());
  }
}

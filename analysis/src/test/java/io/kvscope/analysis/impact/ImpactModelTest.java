package io.kvscope.analysis.impact;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Tenants;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The counting rules on small cases worked out by hand, and the selection API (tally, timeline)
 * that views use to recount part of a report: on every finding it gives the report's own figures.
 */
class ImpactModelTest {

  static final Instant T = Instant.parse("2026-08-28T10:15:00Z");
  static final Instant LATER = Instant.parse("2026-08-29T16:40:00Z");

  /** r1 (globex) carried acme's src-1 through two findings, r2 is only suspect, r3 got acme's own data back. */
  static final List<Finding> CASE = List.of(
      leak("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r1", "globex", T,
          new Source("src-1", null, "acme", 40, List.of(), Attribution.SOLE)),
      leak("ident:r1", FindingKind.RARE_IDENTIFIER_LEAK, Confidence.PROBABLE, "r1", "globex", T,
          new Source("src-1", null, "acme", 12, List.of(), Attribution.SOLE)),
      leak("suspect:r2", FindingKind.CROSS_TENANT_OVERLAP, Confidence.SUSPECT, "r2", "globex", T,
          new Source("src-1", null, "acme", 40, List.of(), Attribution.SOLE)),
      leak("reuse:r3", FindingKind.SAME_TENANT_REUSE, Confidence.CONFIRMED, "r3", "acme", T,
          new Source("src-1", null, "acme", 40, List.of(), Attribution.SOLE)),
      mechanism("over:r1", FindingKind.OVER_LENGTH_ACCEPTED, "r1", "globex", T),
      mechanism("under:r1", FindingKind.PREFILL_UNDERRUN, "r1", "globex", T),
      leak("overlap:r4", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r4", "initech", LATER,
          new Source("src-2", null, "acme", 7, List.of(), Attribution.SOLE), new Source("src-3", null, "globex", 5, List.of(), Attribution.SOLE)),
      mechanism("over:r4", FindingKind.OVER_LENGTH_ACCEPTED, "r4", "initech", LATER));

  @Test
  void aResponseNamedByTwoFindingsCountsOnceAndSuspectOrSameTenantDoNotCount() {
    ImpactModel.Tally tally = ImpactModel.tally(CASE.subList(0, 6));

    assertThat(tally.tenants()).containsExactly(
        new TenantImpact("acme", new TenantImpact.AsVictim(1, 1, 40, 1, 1, 40), new TenantImpact.AsRecipient(0, 0, 0, 0)),
        new TenantImpact("globex", new TenantImpact.AsVictim(0, 0, 0, 0, 0, 0), new TenantImpact.AsRecipient(1, 1, 40, 1)));
    assertThat(tally.matrix()).containsExactly(new MatrixCell("acme", "globex", 1, 40, 1));
    assertThat(ImpactModel.leakedResponses(CASE).keySet()).containsExactly("r1", "r4");
    assertThat(ImpactModel.leakedResponses(CASE).get("r1").tokens()).isEqualTo(40);
    assertThat(ImpactModel.leakedResponses(CASE).get("r4").tokens()).isEqualTo(12);
  }

  @Test
  void theTallyAndTimelineOfEveryFindingAreTheReportsOwn() {
    Instant hour = T.truncatedTo(java.time.temporal.ChronoUnit.HOURS);
    Report report = ImpactModel.build(new ImpactModel.Inputs(CASE, List.of(), Map.of(hour, 9L),
        new Coverage(List.of(), 9, 0, 0), Map.of(), "index", T));

    ImpactModel.Tally tally = ImpactModel.tally(report.findings());
    List<HourCount> timeline = ImpactModel.timeline(report.findings());

    assertThat(tally.tenants()).isEqualTo(report.tenants());
    assertThat(tally.matrix()).isEqualTo(report.matrix());
    assertThat(timeline).containsExactly(
        new HourCount(hour, 1, 1, 1, 0),
        new HourCount(LATER.truncatedTo(java.time.temporal.ChronoUnit.HOURS), 1, 1, 0, 0));
    assertThat(report.timeline()).containsExactly(
        new HourCount(hour, 1, 1, 1, 9),
        new HourCount(LATER.truncatedTo(java.time.temporal.ChronoUnit.HOURS), 1, 1, 0, 0));
  }

  @Test
  void aSelectionCountsOnlyItsOwnFindings() {
    List<Finding> laterDay = CASE.stream().filter(f -> f.time().equals(LATER)).toList();

    ImpactModel.Tally tally = ImpactModel.tally(laterDay);

    assertThat(tally.tenants()).containsExactly(
        new TenantImpact("acme", new TenantImpact.AsVictim(1, 1, 7, 1, 1, 7), new TenantImpact.AsRecipient(0, 0, 0, 0)),
        new TenantImpact("globex", new TenantImpact.AsVictim(1, 1, 5, 1, 1, 5), new TenantImpact.AsRecipient(0, 0, 0, 0)),
        new TenantImpact("initech", new TenantImpact.AsVictim(0, 0, 0, 0, 0, 0), new TenantImpact.AsRecipient(1, 2, 12, 2)));
    assertThat(ImpactModel.timeline(laterDay)).containsExactly(
        new HourCount(LATER.truncatedTo(java.time.temporal.ChronoUnit.HOURS), 1, 1, 0, 0));
  }

  @Test
  void anUnresolvedTenantHasOneNameInTheSummaryTheTenantTableAndTheMatrix() {
    List<Finding> findings = List.of(
        leak("overlap:r9", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r9", null, T,
            new Source("src-9", null, "acme", 30, List.of(), Attribution.SOLE)),
        leak("overlap:r8", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r8", "acme", T,
            new Source("src-8", null, null, 20, List.of(), Attribution.SOLE)));

    Report report = ImpactModel.build(new ImpactModel.Inputs(findings, List.of(), Map.of(),
        new Coverage(List.of(), 2, 0, 0), Map.of(), "index", T));

    assertThat(report.tenants()).extracting(TenantImpact::tenant).containsExactly(Tenants.UNKNOWN, "acme");
    assertThat(report.matrix()).containsExactly(new MatrixCell(Tenants.UNKNOWN, "acme", 1, 20, 1),
        new MatrixCell("acme", Tenants.UNKNOWN, 1, 30, 1));
    assertThat(report.summary().recipientTenants()).isEqualTo(2);
    assertThat(report.summary().victimTenants()).isEqualTo(2);
    assertThat(ImpactModel.tally(findings).tenants()).isEqualTo(report.tenants());
  }

  /**
   * Two requests of two tenants held the leaked passage: each is a candidate. Each victim is 0 for
   * sure and up to 1, the matrix likewise; the recipient received the passage's tokens once.
   */
  @Test
  void candidateSourcesCountAsPossibleNotSure() {
    List<Finding> findings = List.of(leak("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r1",
        "globex", T, new Source("a-1", null, "acme", 30, List.of(), Attribution.CANDIDATE),
        new Source("i-1", null, "initech", 30, List.of(), Attribution.CANDIDATE)));

    ImpactModel.Tally tally = ImpactModel.tally(findings);

    assertThat(tally.tenants()).containsExactly(
        new TenantImpact("acme", new TenantImpact.AsVictim(0, 0, 0, 1, 1, 30), new TenantImpact.AsRecipient(0, 0, 0, 0)),
        new TenantImpact("globex", new TenantImpact.AsVictim(0, 0, 0, 0, 0, 0), new TenantImpact.AsRecipient(1, 0, 30, 2)),
        new TenantImpact("initech", new TenantImpact.AsVictim(0, 0, 0, 1, 1, 30), new TenantImpact.AsRecipient(0, 0, 0, 0)));
    assertThat(tally.matrix()).allSatisfy(c -> {
      assertThat(c.responses()).isZero();
      assertThat(c.responsesPossible()).isEqualTo(1);
    });
  }

  private static Finding leak(String id, FindingKind kind, Confidence confidence, String request, String tenant,
      Instant t, Source... sources) {
    return new Finding(id, kind, confidence, request, null, tenant, t, "p", "d", List.of(sources), Map.of());
  }

  private static Finding mechanism(String id, FindingKind kind, String request, String tenant, Instant t) {
    return new Finding(id, kind, Confidence.CONFIRMED, request, null, tenant, t, "p", "d", List.of(), Map.of());
  }
}

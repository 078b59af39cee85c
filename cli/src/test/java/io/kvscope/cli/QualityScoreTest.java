package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Span;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.impact.Coverage;
import io.kvscope.analysis.impact.ImpactModel;
import io.kvscope.analysis.impact.Report;
import io.kvscope.samples.fleet.Fleet;
import io.kvscope.samples.truth.DecoyTruth;
import io.kvscope.samples.truth.GeneratorInfo;
import io.kvscope.samples.truth.GroundTruth;
import io.kvscope.samples.truth.HolderTruth;
import io.kvscope.samples.truth.LeakTruth;
import io.kvscope.samples.truth.SourceTruth;
import io.kvscope.samples.truth.SummaryTruth;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gate's arithmetic on small exact cases: one true leak (r1 carried s1 of acme's), and one
 * same-tenant reuse (r2 carried its own tenant's s2), reported in several ways.
 */
class QualityScoreTest {

  private static final Instant T = Instant.parse("2026-08-27T10:00:00Z");

  @Test
  void theGeneratedWorldIsPatchedWithTheReleaseTheAnalysisTakesAsFixed() {
    // Two homes on purpose (the world's and the analysis's): were they to part, every generated
    // incident's patched nodes would read as vulnerable by default, and the gate would fail late.
    assertThat(Fleet.FIXED_VERSION).isEqualTo(AnalysisOptions.DEFAULT_FIXED_VERSION);
  }

  @Test
  void exactReportPasses() {
    QualityScore score = QualityScore.of(truth(true), report(leak("r1", "s1", "acme", 0, 80)));

    assertThat(score.passes()).isTrue();
    assertThat(score.lines()).anyMatch(l -> l.startsWith("leaked range") && l.contains("reported 1 to 1, truth 1 within"));
  }

  @Test
  void aSameTenantReuseReportedAsALeakFailsWhenNoOtherTenantHeldItsFragment() {
    Report report = report(leak("r1", "s1", "acme", 0, 80),
        leak("r2", "s9", "acme", 10, 60, own("s2", 10, 60)));

    QualityScore score = QualityScore.of(truth(false), report); // only r2's own tenant held its fragment

    assertThat(score.trapsAsLeaks()).isEqualTo(1);
    assertThat(score.trapsWithinRange()).isEmpty();
    assertThat(score.passes()).isFalse();
  }

  @Test
  void aSameTenantReuseNoLogCanTellFromALeakPassesWhenTheReportCountsItInItsRange() {
    Report report = report(leak("r1", "s1", "acme", 0, 80),
        leak("r2", "s9", "acme", 10, 60, own("s2", 10, 60)));

    QualityScore score = QualityScore.of(truth(true), report); // acme's s9 held r2's fragment too

    assertThat(score.trapsAsLeaks()).isEqualTo(1);
    assertThat(score.trapsWithinRange()).containsExactly("r2");
    assertThat(score.passes()).isTrue();
    assertThat(score.lines()).anyMatch(l -> l.startsWith("leaked range") && l.contains("reported 1 to 2, truth 1 within"));
  }

  @Test
  void theSameReuseFailsWhenTheReportClaimsItForSure() {
    Report report = report(leak("r1", "s1", "acme", 0, 80), leak("r2", "s9", "acme", 10, 60)); // own s2 not named

    QualityScore score = QualityScore.of(truth(true), report);

    assertThat(score.trapsWithinRange()).containsExactly("r2"); // the truth: no log can tell it from a leak
    assertThat(score.leakedRangeHoldsTruth()).isFalse(); // but the report says 2 for sure
    assertThat(score.passes()).isFalse();
    assertThat(score.lines()).anyMatch(l -> l.startsWith("leaked range") && l.contains("reported 2 to 2, truth 1 outside"));
  }

  @Test
  void aTrueSourceListedOnlyAmongASuspectPassagesCandidatesOfALeakedResponseCountsAsListedNotNamed() {
    SourceTruth s3 = fragment("s3", "initech", List.of(new HolderTruth("s3", "initech", T),
        new HolderTruth("s8", "hooli", T)));
    Finding suspect = new Finding("overlap-short:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.SUSPECT, "r1", null,
        "globex", T, "p0", "d0", List.of(candidate("s3", "initech", 100, 160)), Map.of());

    QualityScore listed = QualityScore.of(truth(true, s3), report(leak("r1", "s1", "acme", 0, 80), suspect));
    QualityScore missed = QualityScore.of(truth(true, s3), report(suspect));

    assertThat(listed.trueSources()).isEqualTo(2);
    assertThat(listed.trueSourcesNamed()).isEqualTo(1);
    assertThat(listed.trueSourcesListed()).isEqualTo(2);
    assertThat(listed.passes()).isTrue();
    assertThat(missed.trueSourcesListed()).isZero(); // r1 not found leaked: its suspect candidates prove nothing
    assertThat(missed.passes()).isFalse();
  }

  @Test
  void aReportThatNamesNoSoleSourceFailsWhereTheTruthShowsTheOnlyHolderWithinReach() {
    Finding unattributed = new Finding("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r1", null,
        "globex", T, "p0", "d0", List.of(candidate("s1", "acme", 0, 80)), Map.of());

    QualityScore score = QualityScore.of(truth(true), report(unattributed));

    assertThat(score.soleAttributions()).isZero(); // so "every sole attribution right" holds, vacuously
    assertThat(score.soleMissed()).containsExactly("r1 <- s1");
    assertThat(score.passes()).isFalse();
  }

  @Test
  void aReportThatNamesEveryRequestAsACandidateFails() {
    Finding everyone = leak("r1", "s1", "acme", 0, 80, candidate("s5", "initech", 0, 80),
        candidate("s6", "hooli", 0, 80), candidate("s7", "umbrella", 0, 80));
    Finding sole = new Finding("ident:r1", FindingKind.RARE_IDENTIFIER_LEAK, Confidence.CONFIRMED, "r1", null, "globex", T,
        "p0", "d0", List.of(new Source("s1", null, "acme", 1, List.of(), Attribution.SOLE)), Map.of());

    QualityScore score = QualityScore.of(truth(true), report(everyone, sole));

    assertThat(score.soleMissed()).isEmpty();
    assertThat(score.candidatesPerLeak()).isEqualTo(4.0);
    assertThat(score.holdersPerLeak()).isEqualTo(1.0);
    assertThat(score.candidatesWithinHolders()).isFalse();
    assertThat(score.passes()).isFalse();
  }

  @Test
  void missedLeaksAndProbableFalsePositivesAreCountedExactly() {
    Report report = report(leak("r3", "s1", "acme", 0, 80), leak("r4", "s1", "acme", 0, 80)); // r1 missed, two wrong

    QualityScore score = QualityScore.of(truth(true), report);

    assertThat(score.missedLeaks()).containsExactly("r1");
    assertThat(score.falseLeaks()).containsExactlyInAnyOrder("r3", "r4");
    assertThat(score.probableFalsePositives()).containsExactlyInAnyOrder("r3", "r4");
    assertThat(score.lines()).contains(
        String.format("%-22s %d true leaked responses not counted", "missed leaks", 1),
        String.format("%-22s %d responses counted leaked that carried no other tenant's data, %d of them probable",
            "false leaks", 2, 2));
    assertThat(score.passes()).isFalse();
  }

  @Test
  void leaksTheTruthDoesNotExpectToBeFoundAreShownApartAndNeverMissed() {
    // r5 carried only 8 words of initech's s5, r6 only hooli's canary in another format than kvscope's.
    LeakTruth r5 = recipient("r5", List.of(unexpected("s5", "initech", "span", 8, "below_floor")), List.of());
    LeakTruth r6 = recipient("r6", List.of(unexpected("s6", "hooli", "identifier", 1, "foreign_canary")), List.of());
    GroundTruth truth = withLeaks(truth(true), List.of(r5, r6), List.of());

    QualityScore notFound = QualityScore.of(truth, report(leak("r1", "s1", "acme", 0, 80)));
    QualityScore found = QualityScore.of(truth, report(leak("r1", "s1", "acme", 0, 80), leak("r5", "s5", "initech", 0, 40)));

    assertThat(notFound.notExpected()).containsExactlyInAnyOrder("r5", "r6");
    assertThat(notFound.missedLeaks()).isEmpty();
    assertThat(notFound.significantTruth()).containsExactly("r1"); // a foreign canary is not an identifier kvscope reads
    assertThat(notFound.leakedRangeHoldsTruth()).isTrue();
    assertThat(notFound.passes()).isTrue();
    assertThat(notFound.lines()).anyMatch(l -> l.startsWith("not expected") && l.contains(" 2 leaked responses")
        && l.endsWith("0 of them found"));
    // Found anyway, it is a true leak: not false, its source named sole is right.
    assertThat(found.falseLeaks()).isEmpty();
    assertThat(found.soleAttributionsRight()).isEqualTo(found.soleAttributions());
    assertThat(found.passes()).isTrue();
    assertThat(found.lines()).anyMatch(l -> l.startsWith("not expected") && l.endsWith("1 of them found"));
    // An expected leak missed is still missed.
    assertThat(QualityScore.of(truth, report()).missedLeaks()).containsExactly("r1");
  }

  @Test
  void aDecoyCountedLeakedOrACommonOpeningsOneHolderNamedSoleFailsTheGate() {
    // q1 (globex) asked after pasted text the question b1 (acme) asked bare and got the same answer,
    // served normally; r1's reply opened with 14 words many tenants hold that only initech's s7 held within reach.
    GroundTruth truth = withLeaks(truth(true), List.of(), List.of(
        new DecoyTruth("q1", "globex", T, "pasted_question", 0, 900, 150, List.of(new HolderTruth("b1", "acme", T)), 0),
        new DecoyTruth("r1", "globex", T, DecoyTruth.COMMON_OPENING, 0, 90, 14,
            List.of(new HolderTruth("s7", "initech", T)), 7)));
    Finding r1 = leak("r1", "s1", "acme", 100, 180);
    Finding r1WithOpeningSole = new Finding("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r1",
        null, "globex", T, "p0", "d0", List.of(r1.sources().getFirst(),
        new Source("s7", null, "initech", 14, List.of(new Span(0, 90, "prompt_text", 0, 90, 14)), Attribution.SOLE)),
        Map.of());
    Finding r1WithOpeningCandidate = new Finding("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED,
        "r1", null, "globex", T, "p0", "d0", List.of(r1.sources().getFirst(), candidate("s7", "initech", 0, 90)),
        Map.of());

    QualityScore right = QualityScore.of(truth, report(r1));
    QualityScore decoyCounted = QualityScore.of(truth, report(r1, leak("q1", "b1", "acme", 0, 900)));
    QualityScore openingSole = QualityScore.of(truth, report(r1WithOpeningSole));
    QualityScore openingCandidate = QualityScore.of(truth, report(r1WithOpeningCandidate));

    assertThat(right.passes()).isTrue();
    assertThat(right.lines()).anyMatch(l -> l.startsWith("decoys") && l.contains(" 1 questions answered")
        && l.contains("0 counted leaked") && l.contains("1 stub replies") && l.endsWith("0 of their one holder within reach named sole"));
    assertThat(decoyCounted.servedDecoysCounted()).containsExactly("q1");
    assertThat(decoyCounted.passes()).isFalse();
    assertThat(openingSole.commonOpeningHoldersSole()).isEqualTo(1);
    assertThat(openingSole.passes()).isFalse();
    assertThat(openingCandidate.commonOpeningHoldersSole()).isZero();
    assertThat(openingCandidate.passes()).isTrue();
  }

  /** {@code truth} with more leaked responses and the traps' decoys. */
  private static GroundTruth withLeaks(GroundTruth t, List<LeakTruth> more, List<DecoyTruth> decoys) {
    List<LeakTruth> leaked = new ArrayList<>(t.leakedResponses());
    leaked.addAll(more);
    return new GroundTruth(t.version(), t.generator(), t.periodStart(), t.periodEnd(), t.nodes(), t.configEpochs(),
        t.windows(), leaked, t.sameTenantReuse(), t.overLengthAccepted(), t.prefillUnderruns(), t.rejected(),
        t.coverageGaps(), t.duplicates(), t.victimTenants(), t.recipientTenants(), t.summary(), t.files(), decoys);
  }

  private static SourceTruth unexpected(String request, String tenant, String kind, int words, String why) {
    return new SourceTruth(request, request, tenant, T, "prompt", kind, "identifier".equals(kind) ? "canary" : null,
        words, words, 0, 40, 0, 0, 40, List.of(new HolderTruth(request, tenant, T)), why);
  }

  /** r1 leaked s1 (acme's) to globex; r2 (globex) got back its own s2, which acme's s9 may have held too. */
  private static GroundTruth truth(boolean acmeHeldTheReusedFragment, SourceTruth... moreLeakedToR1) {
    List<SourceTruth> r1 = new ArrayList<>(List.of(fragment("s1", "acme", List.of(new HolderTruth("s1", "acme", T)))));
    r1.addAll(List.of(moreLeakedToR1));
    List<HolderTruth> holders = new ArrayList<>(List.of(new HolderTruth("s2", "globex", T)));
    if (acmeHeldTheReusedFragment) {
      holders.add(new HolderTruth("s9", "acme", T));
    }
    SourceTruth s2 = fragment("s2", "globex", holders);
    return new GroundTruth(GroundTruth.VERSION,
        new GeneratorInfo(1, "0.25x", "incident", 1, 10, 10, 0, 1, 64, "0.5.22", "", "built-in"),
        T, T.plusSeconds(3600), List.of(), List.of(), List.of(),
        List.of(recipient("r1", r1, List.of())), List.of(recipient("r2", List.of(), List.of(s2))),
        List.of(), List.of(), List.of(), List.of(), List.of(), List.of("acme"), List.of("globex"),
        new SummaryTruth(1, 1, 1, 1, 0, 0, T, T), List.of());
  }

  private static SourceTruth fragment(String request, String tenant, List<HolderTruth> holders) {
    return new SourceTruth(request, request, tenant, T, "prompt", "span", null, 50, 40, 0, 80, 0, 0, 80, holders);
  }

  private static LeakTruth recipient(String request, List<SourceTruth> cross, List<SourceTruth> own) {
    return new LeakTruth(request, request, "globex", "pd-a", "p0", "d0", T, T.plusSeconds(5), 700_000, 1, 10, 9, 1,
        cross, own);
  }

  private static Finding leak(String request, String source, String tenant, int start, int end, Source... more) {
    List<Source> sources = new ArrayList<>();
    sources.add(new Source(source, null, tenant, 10, List.of(new Span(start, end, "prompt_text", 0, end - start, 10)),
        more.length == 0 ? Attribution.SOLE : Attribution.CANDIDATE));
    sources.addAll(List.of(more));
    return new Finding("overlap:" + request, FindingKind.CROSS_TENANT_OVERLAP, Confidence.PROBABLE, request, null,
        "globex", T, "p0", "d0", sources, Map.of());
  }

  private static Source own(String request, int start, int end) {
    return candidate(request, "globex", start, end);
  }

  private static Source candidate(String request, String tenant, int start, int end) {
    return new Source(request, null, tenant, 10, List.of(new Span(start, end, "prompt_text", 0, end - start, 10)),
        Attribution.CANDIDATE);
  }

  private static Report report(Finding... findings) {
    return ImpactModel.build(new ImpactModel.Inputs(List.of(findings), List.of(), Map.of(),
        new Coverage(List.of(), 10, 0, 0), Map.of(), "index", T));
  }
}

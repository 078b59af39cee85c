package io.kvscope.analysis.impact;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Span;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The counting rules {@link ImpactModelTest} leaves out, on hand-worked cases: how one source named
 * twice merges, which responses the summary's side counts take, the exposure and vulnerable
 * windows, the data categories and the findings' reading order.
 */
class ImpactModelRulesTest {

  static final Instant T = Instant.parse("2026-08-01T10:00:00Z");

  @Test
  void aSourceNamedTwiceKeepsTheLargerFigureAndIsSoleIfEitherFindingSaysSo() {
    List<Finding> findings = List.of(
        finding("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r1", "globex", T, "p0", "d0",
            source("s1", "acme", 30, Attribution.CANDIDATE), source("s2", "initech", 20, Attribution.CANDIDATE)),
        finding("ident:r1", FindingKind.RARE_IDENTIFIER_LEAK, Confidence.PROBABLE, "r1", "globex", T, "p0", "d0",
            source("s1", "acme", 10, Attribution.SOLE)));

    ImpactModel.Response r1 = ImpactModel.leakedResponses(findings).get("r1");
    Summary summary = build(findings, List.of()).summary();

    assertThat(r1.sources().get("s1").matchedTokens()).isEqualTo(30);
    assertThat(r1.sources().get("s1").sole()).isTrue();
    assertThat(r1.sources().get("s2").sole()).isFalse();
    assertThat(r1.tokens()).isEqualTo(50); // sole s1's 30 and the largest candidate's 20
    assertThat(summary.sourceRequests()).isEqualTo(1);
    assertThat(summary.sourceRequestsPossible()).isEqualTo(2);
    assertThat(summary.victimTenants()).isEqualTo(1);
    assertThat(summary.victimTenantsPossible()).isEqualTo(2);
    assertThat(summary.tokensExposed()).isEqualTo(50);
  }

  /**
   * Text a normally served response shared with one other tenant is in the review list and its
   * count, never among the leaks; a response that leaked through another finding is not listed.
   */
  @Test
  void theReviewListHoldsNormallyServedTextMatchesBesideTheHeadlineNeverInIt() {
    List<String> review = List.of("served-normally: text shared with one other tenant, no leak mechanism in the logs: review");
    List<Finding> findings = List.of(
        reasoned("overlap:r1", "r1", Confidence.SUSPECT, review),
        reasoned("overlap:r2", "r2", Confidence.SUSPECT, List.of("same-answer: the reply another request received")),
        reasoned("overlap:r3", "r3", Confidence.SUSPECT, review),
        finding("canary:r3", FindingKind.CANARY_LEAK, Confidence.CONFIRMED, "r3", "globex", T, "p0", "d0",
            source("s2", "acme", 1, Attribution.SOLE)));

    Report report = build(findings, List.of());

    assertThat(report.review()).extracting(ReviewMatch::requestId).containsExactly("r1");
    assertThat(report.review().getFirst().sourceTenants()).containsExactly("acme");
    assertThat(report.review().getFirst().words()).isEqualTo(40);
    assertThat(report.summary().reviewResponses()).isEqualTo(1);
    assertThat(report.summary().leakedResponses()).isEqualTo(1); // r3, by its canary
  }

  private static Finding reasoned(String id, String request, Confidence confidence, List<String> reasons) {
    return new Finding(id, FindingKind.CROSS_TENANT_OVERLAP, confidence, request, null, "globex", T, "p0", "d0",
        List.of(source("s1", "acme", 40, Attribution.SOLE)), new Evidence.Overlap(reasons,
            new Evidence.LeakMechanism(List.of(), false, List.of()), "sole", 1, 0, 40, 1, List.of(), 0, List.of()));
  }

  /** A leak finding naming only the recipient's own tenant is reuse; one naming nobody (a canary) is a leak. */
  @Test
  void aLeakFindingWithOnlyOwnTenantSourcesIsNoLeakButOneWithoutSourcesIs() {
    List<Finding> findings = List.of(
        finding("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r1", "acme", T, "p0", "d0",
            source("s1", "acme", 30, Attribution.SOLE)),
        finding("canary:r2", FindingKind.CANARY_LEAK, Confidence.CONFIRMED, "r2", "acme", T, "p0", "d0"),
        finding("overlap:r3", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r3", "acme", T, "p0", "d0",
            source("s1", "acme", 30, Attribution.SOLE), source("s9", null, 12, Attribution.SOLE)));

    var leaks = ImpactModel.leakedResponses(findings);

    assertThat(leaks.keySet()).containsExactly("r2", "r3");
    assertThat(leaks.get("r2").tokens()).isZero();
    assertThat(leaks.get("r3").sources().keySet()).containsExactly("s9"); // unknown tenant counts as foreign
  }

  /**
   * r1's one passage (characters 10-60) its own tenant also held: it may be its own data. r2's
   * second passage (70-90) only another tenant held: a leak for sure. r3, an identifier finding
   * naming an own request among its sources, may be its own too; r4's other finding settles it.
   */
  @Test
  void aLeakWhoseEveryPassageTheOwnTenantAlsoHeldMayBeItsOwnDataAndWidensTheCountDownwards() {
    List<Finding> findings = List.of(
        finding("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.PROBABLE, "r1", "globex", T, "p0", "d0",
            spanning("s1", "acme", 10, 60), spanning("s2", "globex", 10, 60)),
        finding("overlap:r2", FindingKind.CROSS_TENANT_OVERLAP, Confidence.PROBABLE, "r2", "globex", T, "p0", "d0",
            spanning("s1", "acme", 10, 60), spanning("s3", "acme", 70, 90), spanning("s2", "globex", 10, 60)),
        finding("ident:r3", FindingKind.RARE_IDENTIFIER_LEAK, Confidence.PROBABLE, "r3", "globex", T, "p0", "d0",
            source("s1", "acme", 1, Attribution.CANDIDATE), source("s2", "globex", 1, Attribution.CANDIDATE)),
        finding("ident:r4", FindingKind.RARE_IDENTIFIER_LEAK, Confidence.PROBABLE, "r4", "globex", T, "p0", "d0",
            source("s1", "acme", 1, Attribution.CANDIDATE), source("s2", "globex", 1, Attribution.CANDIDATE)),
        finding("canary:r4", FindingKind.CANARY_LEAK, Confidence.CONFIRMED, "r4", "globex", T, "p0", "d0",
            source("s5", "initech", 1, Attribution.SOLE)));

    Summary summary = build(findings, List.of()).summary();

    assertThat(ImpactModel.ownTenantAlsoHeld(findings.get(0))).isTrue();
    assertThat(ImpactModel.ownTenantAlsoHeld(findings.get(1))).isFalse();
    assertThat(summary.leakedResponses()).isEqualTo(4);
    assertThat(summary.leakedResponsesOwnTenantAlsoHeld()).isEqualTo(2); // r1 and r3
    assertThat(summary.leakedResponsesAtLeast()).isEqualTo(2);
  }

  @Test
  void reuseOverLengthAndUnderrunsCountDistinctCountedRequestsAndReuseLeavesLeakedOnesOut() {
    List<Finding> findings = List.of(
        finding("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r1", "globex", T, "p0", "d0",
            source("s1", "acme", 30, Attribution.SOLE)),
        finding("reuse:r1", FindingKind.SAME_TENANT_REUSE, Confidence.CONFIRMED, "r1", "globex", T, "p0", "d0"),
        finding("reuse:r5", FindingKind.SAME_TENANT_REUSE, Confidence.CONFIRMED, "r5", "acme", T, "p0", "d0"),
        finding("reuse:r6", FindingKind.SAME_TENANT_REUSE, Confidence.SUSPECT, "r6", "acme", T, "p0", "d0"),
        finding("over:r1", FindingKind.OVER_LENGTH_ACCEPTED, Confidence.CONFIRMED, "r1", "globex", T, "p0", "d0"),
        finding("over:r7", FindingKind.OVER_LENGTH_ACCEPTED, Confidence.PROBABLE, "r7", "globex", T, "p0", "d0"),
        finding("over:r8", FindingKind.OVER_LENGTH_ACCEPTED, Confidence.SUSPECT, "r8", "globex", T, "p0", "d0"),
        finding("under:r1", FindingKind.PREFILL_UNDERRUN, Confidence.CONFIRMED, "r1", "globex", T, "p0", "d0"),
        finding("under-again:r1", FindingKind.PREFILL_UNDERRUN, Confidence.CONFIRMED, "r1", "globex", T, "p0", "d0"));

    Summary summary = build(findings, List.of()).summary();

    assertThat(summary.leakedResponses()).isEqualTo(1);
    assertThat(summary.sameTenantReuse()).isEqualTo(1); // r5: not r1 (leaked), not r6 (suspect)
    assertThat(summary.overLengthAccepted()).isEqualTo(2); // r1 and r7, not r8 (suspect)
    assertThat(summary.prefillUnderruns()).isEqualTo(1);
    assertThat(summary.firstExposure()).isEqualTo(T);
    assertThat(summary.lastExposure()).isEqualTo(T);
  }

  /** r1 leaked (its suspect finding is moot), r3's suspect finding is about configuration: only r4 is suspect. */
  @Test
  void suspectResponsesLeaveOutLeakedResponsesAndConfigFindings() {
    List<Finding> findings = List.of(
        finding("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r1", "globex", T, "p0", "d0",
            source("s1", "acme", 30, Attribution.SOLE)),
        finding("timing:r1", FindingKind.TIMING_ANOMALY, Confidence.SUSPECT, "r1", "globex", T, "p0", "d0"),
        finding("timing:r4", FindingKind.TIMING_ANOMALY, Confidence.SUSPECT, "r4", "globex", T, "p0", "d0"),
        finding("timing-again:r4", FindingKind.TIMING_ANOMALY, Confidence.SUSPECT, "r4", "globex", T, "p0", "d0"),
        finding("config:r3", FindingKind.CONFIG_ENGINE_VERSION_UNKNOWN, Confidence.SUSPECT, "r3", null, T, "p0", null));

    assertThat(build(findings, List.of()).summary().suspectResponses()).isEqualTo(1);
  }

  /** On d0: a day exactly between two leaks keeps one window, a millisecond more starts a new one. */
  @Test
  void exposureWindowsArePerDecodeNodeAndSplitWhereLeaksAreMoreThanADayApart() {
    Instant dayLater = T.plus(Duration.ofDays(1));
    Instant overADayAfterThat = dayLater.plus(Duration.ofDays(1)).plusMillis(1);
    List<Finding> findings = List.of(
        leak("r3", overADayAfterThat, "d0"), leak("r1", T, "d0"), leak("r2", dayLater, "d0"),
        leak("r4", T.plusSeconds(3_600), "d1"));

    List<Window> windows = build(findings, List.of()).windows();

    assertThat(windows).containsExactly(
        new Window(Window.Kind.EXPOSURE, "d0", null, T, dayLater, 2, null),
        new Window(Window.Kind.EXPOSURE, "d0", null, overADayAfterThat, overADayAfterThat, 1, null),
        new Window(Window.Kind.EXPOSURE, "d1", null, T.plusSeconds(3_600), T.plusSeconds(3_600), 1, null));
  }

  @Test
  void aLeakWithoutAKnownDecodeNodeHasAnExposureWindowWithoutANode() {
    List<Window> windows = build(List.of(leak("r1", T, null)), List.of()).windows();

    assertThat(windows).singleElement().satisfies(w -> assertThat(w.node()).isNull());
  }

  /**
   * Open 10:00 to 12:00 on p0: r1 (a leak and over-length, at the very start) and r2 (over-length
   * decoded on p0) count once each; r3 at 12:00, a suspect r4, an underrun r5 and r6 on p9 do not.
   * The window still open since 11:30 holds r3 only.
   */
  @Test
  void aVulnerableWindowCountsDistinctLeakedOrOverLengthRequestsOnItsNodeWhileItWasOpen() {
    Instant ten = T;
    Instant noon = T.plusSeconds(7_200);
    List<Finding> findings = List.of(
        finding("overlap:r1", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r1", "globex", ten, "p0", "d0",
            source("s1", "acme", 30, Attribution.SOLE)),
        finding("over:r1", FindingKind.OVER_LENGTH_ACCEPTED, Confidence.CONFIRMED, "r1", "globex", ten.plusSeconds(60),
            "p0", "d0"),
        finding("over:r2", FindingKind.OVER_LENGTH_ACCEPTED, Confidence.CONFIRMED, "r2", "globex", ten.plusSeconds(600),
            "p1", "p0"),
        finding("overlap:r3", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r3", "globex", noon, "p0", "d0",
            source("s1", "acme", 30, Attribution.SOLE)),
        finding("overlap:r4", FindingKind.CROSS_TENANT_OVERLAP, Confidence.SUSPECT, "r4", "globex", ten.plusSeconds(900),
            "p0", "d0", source("s1", "acme", 30, Attribution.SOLE)),
        finding("under:r5", FindingKind.PREFILL_UNDERRUN, Confidence.CONFIRMED, "r5", "globex", ten.plusSeconds(900),
            "p0", "d0"),
        finding("overlap:r6", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r6", "globex", ten.plusSeconds(900),
            "p9", "d9", source("s1", "acme", 30, Attribution.SOLE)));
    List<Window> vulnerable = List.of(
        new Window(Window.Kind.VULNERABLE, "p0", "dep", ten, noon, 0, "pool below context", "0.5.21"),
        new Window(Window.Kind.VULNERABLE, "p0", "dep", ten.plusSeconds(5_400), null, 0, "pool below context", "0.5.21"));

    List<Window> windows = build(findings, vulnerable).windows();

    assertThat(windows).filteredOn(w -> w.kind() == Window.Kind.VULNERABLE).extracting(Window::count)
        .containsExactly(2L, 1L);
    assertThat(windows.get(0)).isEqualTo(
        new Window(Window.Kind.VULNERABLE, "p0", "dep", ten, noon, 2, "pool below context", "0.5.21"));
  }

  @Test
  void eachCategoryCountsTheLeakedResponsesWhoseCountedFindingsNameIt() {
    List<Finding> findings = List.of(
        categorised("overlap:r1", "r1", Confidence.CONFIRMED, List.of("email", "phone")),
        categorised("ident:r1", "r1", Confidence.PROBABLE, List.of("email")),
        categorised("overlap:r2", "r2", Confidence.CONFIRMED, List.of("email")),
        categorised("overlap:r3", "r3", Confidence.SUSPECT, List.of("iban")));

    assertThat(build(findings, List.of()).dataCategories()).isEqualTo(Map.of("email", 2L, "phone", 1L));
  }

  @Test
  void findingsReadLeaksFirstThenByConfidenceThenTimeThenId() {
    Finding overLength = finding("over:r1", FindingKind.OVER_LENGTH_ACCEPTED, Confidence.CONFIRMED, "r1", "g", T, "p0", "d0");
    Finding probable = finding("x:probable", FindingKind.CROSS_TENANT_OVERLAP, Confidence.PROBABLE, "r2", "g", T, "p0", "d0");
    Finding late = finding("a:late", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r3", "g", T.plusSeconds(1),
        "p0", "d0");
    Finding b = finding("b", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r4", "g", T, "p0", "d0");
    Finding a = finding("a", FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, "r5", "g", T, "p0", "d0");
    List<Finding> shuffled = new ArrayList<>(List.of(overLength, probable, late, b, a));

    assertThat(build(shuffled, List.of()).findings()).containsExactly(a, b, late, probable, overLength);
  }

  private static Report build(List<Finding> findings, List<Window> vulnerable) {
    return ImpactModel.build(new ImpactModel.Inputs(findings, vulnerable, Map.of(), new Coverage(List.of(), 10, 0, 0),
        Map.of(), "index", T));
  }

  private static Finding leak(String request, Instant time, String decodeNode) {
    return finding("overlap:" + request, FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED, request, "globex", time,
        "p0", decodeNode, source("src-" + request, "acme", 10, Attribution.SOLE));
  }

  private static Finding categorised(String id, String request, Confidence confidence, List<String> categories) {
    return new Finding(id, FindingKind.CROSS_TENANT_OVERLAP, confidence, request, null, "globex", T, "p0", "d0",
        List.of(source("s1", "acme", 10, Attribution.SOLE)), new Evidence.Overlap(List.of(),
            new Evidence.LeakMechanism(List.of(), false, List.of()), "sole", 1, 0, 10, 1, List.of(), 0, categories));
  }

  /** A candidate source holding one passage, characters {@code start} to {@code end} of the response. */
  private static Source spanning(String request, String tenant, int start, int end) {
    return new Source(request, null, tenant, 10, List.of(new Span(start, end, "prompt_text", 0, end - start, 10)),
        Attribution.CANDIDATE);
  }

  private static Source source(String request, String tenant, long tokens, Attribution attribution) {
    return new Source(request, null, tenant, tokens, List.of(), attribution);
  }

  private static Finding finding(String id, FindingKind kind, Confidence confidence, String request, String tenant,
      Instant time, String node, String decodeNode, Source... sources) {
    return new Finding(id, kind, confidence, request, null, tenant, time, node, decodeNode, List.of(sources), Map.of());
  }
}

package io.kvscope.model.evidence;

import static io.kvscope.model.evidence.Facts.PUBLIC;
import static io.kvscope.model.evidence.Facts.T;
import static io.kvscope.model.evidence.Facts.holder;
import static io.kvscope.model.evidence.Facts.passage;
import static io.kvscope.model.evidence.Facts.served;
import static io.kvscope.model.evidence.Facts.servedNormally;
import static io.kvscope.model.evidence.Facts.stub;
import static io.kvscope.model.evidence.Facts.transferFailure;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Confidence;
import org.junit.jupiter.api.Test;

/** Each passage rule on small exact cases, and the standard chain end to end on plain values. */
class PassageRulesTest {

  private static final RuleChain<PassageFacts> CHAIN = PassageRules.chain(T, PUBLIC);

  private static Decision decide(Mechanism m, Facts.Passage p) {
    return CHAIN.decide(m, p.facts());
  }

  @Test
  void runsShorterThanTwelveWordsNeverCountAndUnderTwoTOnlyOverForeignKv() {
    var rule = new PassageRules.TooShort(T);
    assertThat(rule.apply(stub(), passage().words(11).facts()).effect()).isEqualTo(Verdict.Effect.DROP);
    assertThat(rule.apply(stub(), passage().words(12).facts()).effect()).isEqualTo(Verdict.Effect.PASS);
    assertThat(rule.apply(served(), passage().words(31).facts()).effect()).isEqualTo(Verdict.Effect.DROP);
    assertThat(rule.apply(served(), passage().words(32).facts()).effect()).isEqualTo(Verdict.Effect.PASS);
    assertThat(PassageRules.minimumWords(stub(), T)).isEqualTo(12);
    assertThat(PassageRules.minimumWords(served(), T)).isEqualTo(32);
  }

  @Test
  void theOwnPromptExplainsOnlyWhereItWasPrefilled() {
    var rule = new PassageRules.OwnPromptExplains();
    assertThat(rule.apply(served(), passage().ownPrompt().facts()).effect()).isEqualTo(Verdict.Effect.DROP);
    assertThat(rule.apply(transferFailure(), passage().ownPrompt().facts()).effect()).isEqualTo(Verdict.Effect.DROP);
    assertThat(rule.apply(stub(), passage().ownPrompt().facts()).effect()).isEqualTo(Verdict.Effect.PASS);
  }

  @Test
  void aPassageNoOneWithinReachHeldIsNoEvidence() {
    assertThat(new PassageRules.NoHolderWithinReach().apply(stub(), passage().held().facts()).effect())
        .isEqualTo(Verdict.Effect.DROP);
  }

  @Test
  void publicTextIsDroppedExceptWhereThePromptWasNeverPrefilled() {
    var rule = new PassageRules.PublicText(PUBLIC);
    assertThat(rule.apply(served(), passage().tenants(PUBLIC + 1).facts()).effect()).isEqualTo(Verdict.Effect.DROP);
    assertThat(rule.apply(served(), passage().tenants(PUBLIC).facts()).effect()).isEqualTo(Verdict.Effect.PASS);
    assertThat(rule.apply(stub(), passage().tenants(20).facts()).effect()).isEqualTo(Verdict.Effect.PASS);
  }

  @Test
  void theSameAnswerToTheSameQuestionIsAtMostSuspect() {
    var rule = new PassageRules.SameAnswer();
    Verdict verdict = rule.apply(served(), passage().sameQuestion().facts());
    assertThat(verdict.effect()).isEqualTo(Verdict.Effect.CAP);
    assertThat(verdict.cap()).isEqualTo(Confidence.SUSPECT);
    assertThat(rule.apply(stub(), passage().sameQuestion().facts()).effect()).isEqualTo(Verdict.Effect.PASS);
  }

  @Test
  void stockPhrasingIsNoEvidenceAloneAndUnresolvedWhenSeveralTenantsHeldIt() {
    var rule = new PassageRules.StockPhrasing();
    assertThat(rule.apply(served(), passage().stock().facts()).effect()).isEqualTo(Verdict.Effect.DROP);
    assertThat(rule.apply(stub(), passage().stock().facts()).effect()).isEqualTo(Verdict.Effect.NOTE);
    Verdict two = rule.apply(stub(), passage().stock()
        .held(holder("gw-a", "a", 1, true), holder("gw-b", "b", 2, true)).facts());
    assertThat(two.effect()).isEqualTo(Verdict.Effect.CAP);
    assertThat(two.cap()).isEqualTo(Confidence.SUSPECT);
  }

  @Test
  void aShortRunManyTenantsHoldIsSuspectEvenOverForeignKv() {
    var rule = new PassageRules.CommonShortRun(T, PUBLIC);
    assertThat(rule.apply(transferFailure(), passage().words(14).tenants(PUBLIC + 1).facts()).cap()).isEqualTo(Confidence.SUSPECT);
    assertThat(rule.apply(transferFailure(), passage().words(T).tenants(PUBLIC + 1).facts()).effect()).isEqualTo(Verdict.Effect.PASS);
    assertThat(rule.apply(transferFailure(), passage().words(14).tenants(PUBLIC).facts()).effect()).isEqualTo(Verdict.Effect.PASS);
  }

  @Test
  void aCommonShortRunAnotherTenantsPromptHeldCountsWhereThePromptWasNeverPrefilled() {
    var rule = new PassageRules.CommonShortRun(T, PUBLIC);
    var promptHeld = passage().words(14).tenants(PUBLIC + 1).held(holder("gw-victim", "victim", 1, false));
    assertThat(rule.apply(stub(), promptHeld.facts()).effect()).isEqualTo(Verdict.Effect.NOTE);
    assertThat(rule.apply(transferFailure(), promptHeld.facts()).cap()).isEqualTo(Confidence.SUSPECT);
    var replyHeld = passage().words(14).tenants(PUBLIC + 1).held(holder("gw-victim", "victim", 1, true));
    assertThat(rule.apply(stub(), replyHeld.facts()).cap()).isEqualTo(Confidence.SUSPECT);
    var ownPromptHeld = passage().words(14).tenants(PUBLIC + 1).held(holder("gw-own", "recipient", 1, false),
        holder("gw-victim", "victim", 2, true));
    assertThat(rule.apply(stub(), ownPromptHeld.facts()).cap()).isEqualTo(Confidence.SUSPECT);
  }

  @Test
  void whenTheLikeliestHolderIsTheRecipientsOwnTenantItIsSuspect() {
    var rule = new PassageRules.OwnTenantLikeliest();
    Verdict ownLatest = rule.apply(stub(), passage().held(holder("gw-other", "victim", 1, false),
        holder("gw-own", "recipient", 2, false)).facts());
    assertThat(ownLatest.cap()).isEqualTo(Confidence.SUSPECT);
    Verdict otherLatest = rule.apply(stub(), passage().held(holder("gw-own", "recipient", 1, false),
        holder("gw-other", "victim", 2, false)).facts());
    assertThat(otherLatest.effect()).isEqualTo(Verdict.Effect.PASS);
    Holder otherOnTheSameNode = holder("gw-other", "victim", 1, false);
    Holder ownOnAnotherNode = new Holder(7, "gw-own", "recipient", 1_000, 2_000, false, false, false);
    assertThat(rule.apply(stub(), passage().held(otherOnTheSameNode, ownOnAnotherNode).facts()).effect())
        .isEqualTo(Verdict.Effect.PASS);
    assertThat(rule.apply(stub(), passage().held(holder("gw-own", "recipient", 1, false)).facts()).effect())
        .as("only the own tenant held it: not a leak between tenants, another rule's case")
        .isEqualTo(Verdict.Effect.PASS);
  }

  @Test
  void theChainLeavesASameTenantTrapAtSuspectEvenOverForeignKv() {
    Decision d = decide(stub(), passage().words(16).tenants(6).held(holder("gw-a", "a", 1, true),
        holder("gw-b", "b", 2, true), holder("gw-own", "recipient", 3, true)));
    assertThat(d.kept()).isTrue();
    assertThat(d.confidence()).isEqualTo(Confidence.SUSPECT);
    assertThat(d.reasons()).anyMatch(r -> r.startsWith("own-tenant-likeliest:"));
  }

  @Test
  void theRecipientsOwnTenantAmongTheHoldersMakesItProbable() {
    var rule = new PassageRules.OwnTenantAlsoHeld();
    Verdict mixed = rule.apply(stub(), passage().held(holder("gw-own", "recipient", 1, false),
        holder("gw-other", "victim", 2, false)).facts());
    assertThat(mixed.cap()).isEqualTo(Confidence.PROBABLE);
    assertThat(rule.apply(stub(), passage().facts()).effect()).isEqualTo(Verdict.Effect.PASS);
  }

  @Test
  void textAloneIsProbableOnlyForALongPassageSpecificToOneOtherTenant() {
    var rule = new PassageRules.TextAlone(T);
    assertThat(rule.apply(served(), passage().words(40).tenants(1).facts()).cap()).isEqualTo(Confidence.PROBABLE);
    assertThat(rule.apply(served(), passage().words(40).tenants(2).facts()).cap()).isEqualTo(Confidence.SUSPECT);
    assertThat(rule.apply(served(), passage().words(40).held(holder("gw-a", "a", 1, true),
        holder("gw-b", "b", 2, true)).facts()).cap()).isEqualTo(Confidence.SUSPECT);
    assertThat(rule.apply(stub(), passage().words(40).tenants(9).facts()).effect()).isEqualTo(Verdict.Effect.PASS);
  }

  @Test
  void textSpecificToOneOtherTenantOnANormallyServedResponseIsForReviewNeverCounted() {
    var rule = new PassageRules.ServedNormally(T);
    Verdict review = rule.apply(servedNormally(), passage().words(40).tenants(1).facts());
    assertThat(review.effect()).isEqualTo(Verdict.Effect.CAP);
    assertThat(review.cap()).isEqualTo(Confidence.SUSPECT);
    assertThat(review.reason()).startsWith("text shared with one other tenant, no leak mechanism in the logs: review");
    // Text that is not specific is text-alone's (suspect), and the unobserved or foreign-KV response is not this rule's.
    assertThat(rule.apply(servedNormally(), passage().words(40).tenants(2).facts()).effect()).isEqualTo(Verdict.Effect.PASS);
    assertThat(rule.apply(servedNormally(), passage().words(40).tenants(1).sameQuestion().facts()).effect())
        .as("the same answer to the same question is explained, not for review").isEqualTo(Verdict.Effect.PASS);
    assertThat(rule.apply(served(), passage().words(40).tenants(1).facts()).effect()).isEqualTo(Verdict.Effect.PASS);
    assertThat(rule.apply(transferFailure(), passage().words(40).tenants(1).facts()).effect())
        .isEqualTo(Verdict.Effect.PASS);
    assertThat(rule.apply(stub(), passage().words(40).tenants(1).facts()).effect()).isEqualTo(Verdict.Effect.PASS);
  }

  @Test
  void theChainCountsTextAloneOnlyWhereTheLogsCouldNotShowTheServiceAndSaysWhy() {
    Decision normal = decide(servedNormally(), passage().words(40).tenants(1));
    assertThat(normal.kept()).isTrue();
    assertThat(normal.confidence()).isEqualTo(Confidence.SUSPECT);
    assertThat(normal.reasons()).singleElement().asString().startsWith("served-normally: ");
    for (Observation unobserved : new Observation[] {Observation.NO_ENGINE_LOG, Observation.RID_NOT_JOINED,
        Observation.PREFILL_NOT_LOGGED, Observation.DECODE_NOT_LOGGED, Observation.INPUT_LENGTH_NOT_LOGGED,
        Observation.TIMING_ANOMALY}) {
      Mechanism m = new Mechanism(false, java.util.List.of(), java.util.List.of(), unobserved);
      Decision d = decide(m, passage().words(40).tenants(1));
      assertThat(d.confidence()).as(unobserved.name()).isEqualTo(Confidence.PROBABLE);
      assertThat(d.reasons()).singleElement().asString().contains(unobserved.phrase());
    }
  }

  @Test
  void aShortPassageOtherTenantsHoldCannotMakeItsOneHolderWithinReachTheSoleSource() {
    // Under the public-text cut-off and still not one tenant's text: the common openings of the traps.
    int many = PassageRules.CommonTextNotSole.MAX_TENANTS_FOR_SOLE + 1;
    for (int tenants : new int[] {many, PUBLIC + 1}) {
      Decision common = decide(stub(), passage().words(14).tenants(tenants));
      assertThat(common.kept()).isTrue();
      assertThat(PassageRules.makesSoleSource(passage().words(14).tenants(tenants).facts(), common)).as("%d", tenants)
          .isFalse();
      assertThat(common.reasons()).anyMatch(r -> r.startsWith("common-text-not-sole: one request within reach held these"));
    }
    Decision shortOfTwoT = decide(stub(), passage().words(2 * T - 1).tenants(many));
    assertThat(PassageRules.makesSoleSource(passage().words(2 * T - 1).tenants(many).facts(), shortOfTwoT)).isFalse();
    // A run of 2T words one request within reach held came from it, however many tenants hold it elsewhere.
    Decision longCommon = decide(stub(), passage().words(2 * T).tenants(PUBLIC + 1));
    assertThat(PassageRules.makesSoleSource(passage().words(2 * T).tenants(PUBLIC + 1).facts(), longCommon)).isTrue();
    // Its holder's tenant and a few others hold it: still text specific enough to name its one holder within reach.
    for (int tenants : new int[] {1, many - 1}) {
      Decision specific = decide(stub(), passage().words(14).tenants(tenants));
      assertThat(PassageRules.makesSoleSource(passage().words(14).tenants(tenants).facts(), specific)).isTrue();
    }
    Facts.Passage two = passage().words(14).tenants(1).held(holder("gw-a", "a", 1, true), holder("gw-b", "b", 2, true));
    assertThat(PassageRules.makesSoleSource(two.facts(), decide(stub(), two))).isFalse();
  }

  @Test
  void theChainConfirmsAnotherTenantsPassageDecodedOverForeignKvAndSaysWhy() {
    Decision d = decide(stub(), passage().words(14).tenants(1));
    assertThat(d.kept()).isTrue();
    assertThat(d.confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(d.reasons()).containsExactly("foreign-kv: decoded over foreign KV: over-length prompt accepted, prefill underrun");
    // Many tenants holding it elsewhere leave it confirmed, with a note that its one holder is not named sole.
    Decision common = decide(stub(), passage().words(14).tenants(PassageRules.CommonTextNotSole.MAX_TENANTS_FOR_SOLE + 1));
    assertThat(common.confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(common.reasons()).hasSize(2).first().asString().startsWith("foreign-kv: ");
  }

  @Test
  void theChainKeepsAPopularAnswerOnAStubWithEveryHolderAsCandidate() {
    // The missed leak: 48 words three other tenants' answers also held, on a stub.
    Decision d = decide(stub(), passage().words(48).tenants(4).sameQuestion()
        .held(holder("gw-a", "a", 1, true), holder("gw-b", "b", 2, true), holder("gw-c", "c", 3, true)));
    assertThat(d.kept()).isTrue();
    assertThat(d.confidence()).isEqualTo(Confidence.CONFIRMED);
  }

  @Test
  void theChainLeavesTheSameAnswerOnAResponseServedNormallyAtSuspect() {
    Decision d = decide(served(), passage().words(267).tenants(2).sameQuestion());
    assertThat(d.kept()).isTrue();
    assertThat(d.confidence()).isEqualTo(Confidence.SUSPECT);
    assertThat(d.reasons()).anyMatch(r -> r.startsWith("same-answer:"));
  }

  @Test
  void theChainStopsAtTheFirstDropAndNamesIt() {
    Decision d = decide(served(), passage().words(40).ownPrompt().tenants(9));
    assertThat(d.kept()).isFalse();
    assertThat(d.droppedBy()).isEqualTo("own-prompt");
  }
}

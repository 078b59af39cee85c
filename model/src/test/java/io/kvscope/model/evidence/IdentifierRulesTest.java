package io.kvscope.model.evidence;

import static io.kvscope.model.evidence.Facts.holder;
import static io.kvscope.model.evidence.Facts.served;
import static io.kvscope.model.evidence.Facts.stub;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Confidence;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The identifier rules on small exact cases. */
class IdentifierRulesTest {

  private static final RuleChain<IdentifierFacts> CHAIN = IdentifierRules.chain();

  private static IdentifierFacts email(List<Holder> candidates, boolean inPrompt, int tenants, boolean ownPrompt,
      boolean sameQuestion) {
    return new IdentifierFacts("email", "recipient", candidates, inPrompt, tenants, ownPrompt, sameQuestion);
  }

  private static final Holder VICTIM_PROMPT = holder("gw-victim", "victim", 10, false);
  private static final Holder VICTIM_REPLY = holder("gw-victim", "victim", 10, true);

  @Test
  void aRareIdentifierOfOneOtherTenantOnANormallyServedResponseIsForReviewButACanaryStillCounts() {
    IdentifierFacts facts = email(List.of(VICTIM_PROMPT), true, 1, false, false);
    Decision d = CHAIN.decide(Facts.servedNormally(), facts);
    assertThat(d.confidence()).isEqualTo(Confidence.SUSPECT);
    assertThat(d.reasons()).anyMatch(r -> r.startsWith("served-normally: "));
    IdentifierFacts canary = new IdentifierFacts("canary", "recipient", List.of(VICTIM_PROMPT), true, 1, false, false);
    assertThat(CHAIN.decide(Facts.servedNormally(), canary).confidence()).isEqualTo(Confidence.CONFIRMED);
  }

  @Test
  void aRareIdentifierAnotherTenantWroteIsProbableAloneAndConfirmedOverForeignKv() {
    IdentifierFacts facts = email(List.of(VICTIM_PROMPT), true, 1, false, false);
    assertThat(CHAIN.decide(served(), facts).confidence()).isEqualTo(Confidence.PROBABLE);
    assertThat(CHAIN.decide(stub(), facts).confidence()).isEqualTo(Confidence.CONFIRMED);
  }

  @Test
  void anIdentifierOnlyEarlierRepliesHeldIsSuspectWithoutMechanismEvidence() {
    IdentifierFacts facts = email(List.of(VICTIM_REPLY), false, 1, false, false);
    Decision d = CHAIN.decide(served(), facts);
    assertThat(d.confidence()).isEqualTo(Confidence.SUSPECT);
    assertThat(d.reasons()).anyMatch(r -> r.startsWith("model-written:"));
    assertThat(CHAIN.decide(stub(), facts).confidence()).isEqualTo(Confidence.CONFIRMED);
  }

  @Test
  void theSameAnswersIdentifierIsSuspectAndTheOwnPromptsIsNoEvidence() {
    assertThat(CHAIN.decide(served(), email(List.of(VICTIM_PROMPT), true, 1, false, true)).confidence())
        .isEqualTo(Confidence.SUSPECT);
    assertThat(CHAIN.decide(served(), email(List.of(VICTIM_PROMPT), true, 1, true, false)).droppedBy())
        .isEqualTo("own-prompt");
    assertThat(CHAIN.decide(stub(), email(List.of(VICTIM_PROMPT), true, 1, true, false)).kept()).isTrue();
  }

  @Test
  void aPublicIdentifierIsNoEvidenceButACanaryAlwaysIs() {
    assertThat(CHAIN.decide(stub(), email(List.of(VICTIM_PROMPT), true, 4, false, false)).droppedBy())
        .isEqualTo("public-identifier");
    IdentifierFacts canary = new IdentifierFacts("canary", "recipient", List.of(VICTIM_REPLY), false, 6, false, true);
    Decision d = CHAIN.decide(served(), canary);
    assertThat(d.confidence()).isEqualTo(Confidence.CONFIRMED);
    assertThat(d.reasons()).anyMatch(r -> r.startsWith("canary:"));
  }

  @Test
  void noHolderWithinReachIsNoEvidence() {
    assertThat(CHAIN.decide(stub(), email(List.of(), true, 1, false, false)).droppedBy())
        .isEqualTo("no-holder-within-reach");
  }

  @Test
  void anIdentifierWhoseLikeliestHolderIsTheRecipientsOwnTenantIsSuspectButNotACanary() {
    Holder ownLater = holder("gw-own", "recipient", 20, false);
    Decision d = CHAIN.decide(stub(), email(List.of(VICTIM_PROMPT, ownLater), true, 2, false, false));
    assertThat(d.confidence()).isEqualTo(Confidence.SUSPECT);
    assertThat(d.reasons()).anyMatch(r -> r.startsWith("own-tenant-likeliest:"));
    Holder ownEarlier = holder("gw-own", "recipient", 5, false);
    assertThat(CHAIN.decide(stub(), email(List.of(VICTIM_PROMPT, ownEarlier), true, 2, false, false)).confidence())
        .isEqualTo(Confidence.PROBABLE);
    IdentifierFacts canary = new IdentifierFacts("canary", "recipient", List.of(VICTIM_PROMPT, ownLater), true, 2,
        false, false);
    Decision canaryDecision = CHAIN.decide(stub(), canary);
    assertThat(canaryDecision.reasons()).noneMatch(r -> r.startsWith("own-tenant-likeliest:"));
    assertThat(canaryDecision.confidence()).as("the older own-tenant-also-held cap still applies")
        .isEqualTo(Confidence.PROBABLE);
  }
}

package io.kvscope.model.evidence;

import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import java.util.List;

/**
 * The rules that decide whether an identifier in a response (an e-mail address, an account
 * number, a key, a canary marker) is another request's data. A canary is proof: it is planted in
 * one request and must never appear elsewhere. Other identifiers are specific text, but a model
 * writes example addresses and numbers too, and answers the same question with the same ones.
 *
 * <p>In order: {@link OwnPromptExplains}, {@link PublicIdentifier}, {@link NoHolderWithinReach},
 * {@link Canary}, {@link SameAnswer}, {@link ModelWritten}, {@link OwnTenantLikeliest}, {@link OwnTenantAlsoHeld},
 * {@link ServedNormally}, {@link TextAlone}, {@link ForeignKv}.
 */
public final class IdentifierRules {

  /** An identifier more tenants than this hold is public (a support address, a documented key). */
  public static final int MAX_TENANTS_FOR_RARE = 3;

  private IdentifierRules() {}

  public static RuleChain<IdentifierFacts> chain() {
    return new RuleChain<>(List.of(new OwnPromptExplains(), new PublicIdentifier(MAX_TENANTS_FOR_RARE),
        new NoHolderWithinReach(), new Canary(), new SameAnswer(), new ModelWritten(), new OwnTenantLikeliest(), new OwnTenantAlsoHeld(),
        new ServedNormally(), new TextAlone(), new ForeignKv()));
  }

  /** The recipient's own prefilled prompt holds it: the model repeated what it was told. */
  public record OwnPromptExplains() implements EvidenceRule<IdentifierFacts> {
    public String name() {
      return "own-prompt";
    }

    public Verdict apply(Mechanism m, IdentifierFacts f) {
      return !m.neverPrefilled() && f.ownPromptHolds()
          ? Verdict.drop(name(), "the recipient's own prompt holds it") : Verdict.pass();
    }
  }

  /** Held by more than a few tenants: public, proves nothing (canaries excepted). */
  public record PublicIdentifier(int maxTenants) implements EvidenceRule<IdentifierFacts> {
    public String name() {
      return "public-identifier";
    }

    public Verdict apply(Mechanism m, IdentifierFacts f) {
      return !f.canary() && f.tenantsInIndex() > maxTenants
          ? Verdict.drop(name(), "held by " + f.tenantsInIndex() + " tenants (more than " + maxTenants + ")")
          : Verdict.pass();
    }
  }

  public record NoHolderWithinReach() implements EvidenceRule<IdentifierFacts> {
    public String name() {
      return "no-holder-within-reach";
    }

    public Verdict apply(Mechanism m, IdentifierFacts f) {
      return f.candidates().isEmpty()
          ? Verdict.drop(name(), "no earlier request on its decode node and engine run held it") : Verdict.pass();
    }
  }

  /** Another tenant's canary marker in a response is proof whatever else is known. */
  public record Canary() implements EvidenceRule<IdentifierFacts> {
    public String name() {
      return "canary";
    }

    public Verdict apply(Mechanism m, IdentifierFacts f) {
      return f.canary() && !f.otherTenants().isEmpty()
          ? Verdict.note(name(), "a canary marker planted in another tenant's request") : Verdict.pass();
    }
  }

  /** The same identifier in the answer to the same question is the model's, not a tenant's. */
  public record SameAnswer() implements EvidenceRule<IdentifierFacts> {
    public String name() {
      return "same-answer";
    }

    public Verdict apply(Mechanism m, IdentifierFacts f) {
      return !f.canary() && !m.neverPrefilled() && f.answersSameQuestion()
          ? Verdict.cap(name(), Confidence.SUSPECT, "in the reply another request that asked the same question received")
          : Verdict.pass();
    }
  }

  /**
   * Held only in earlier replies, never written by a tenant into a prompt: without mechanism
   * evidence, the model may have written it again by itself.
   */
  public record ModelWritten() implements EvidenceRule<IdentifierFacts> {
    public String name() {
      return "model-written";
    }

    public Verdict apply(Mechanism m, IdentifierFacts f) {
      return !f.canary() && !m.decodedOverForeignKv() && !f.heldInAPrompt()
          ? Verdict.cap(name(), Confidence.SUSPECT, "only earlier replies held it, no prompt") : Verdict.pass();
    }
  }

  /** The likeliest holder within reach is the recipient's own tenant's: most likely its own data (canaries excepted). */
  public record OwnTenantLikeliest() implements EvidenceRule<IdentifierFacts> {
    public String name() {
      return "own-tenant-likeliest";
    }

    public Verdict apply(Mechanism m, IdentifierFacts f) {
      return !f.canary() && f.ownTenantLikeliest()
          ? Verdict.cap(name(), Confidence.SUSPECT, "the likeliest holder within reach is the recipient's own tenant's")
          : Verdict.pass();
    }
  }

  public record OwnTenantAlsoHeld() implements EvidenceRule<IdentifierFacts> {
    public String name() {
      return "own-tenant-also-held";
    }

    public Verdict apply(Mechanism m, IdentifierFacts f) {
      boolean own = f.candidates().stream().anyMatch(c -> c.tenant().equals(f.recipientTenant()));
      return own && !f.otherTenants().isEmpty()
          ? Verdict.cap(name(), Confidence.PROBABLE, "the recipient's own tenant also held it within reach")
          : Verdict.pass();
    }
  }

  /**
   * On a response the engine logs show was served normally, a rare identifier of one other tenant
   * is a coincidence to review, never a counted leak (canaries excepted: a canary is proof).
   */
  public record ServedNormally() implements EvidenceRule<IdentifierFacts> {
    public String name() {
      return Evidence.OfLeak.SERVED_NORMALLY_RULE;
    }

    public Verdict apply(Mechanism m, IdentifierFacts f) {
      return !f.canary() && m.servedNormally() && f.otherTenants().size() == 1 && !f.answersSameQuestion()
          ? Verdict.cap(name(), Confidence.SUSPECT, "an identifier of one other tenant, no leak mechanism in the logs: "
              + "review (" + m.observation().phrase() + ")")
          : Verdict.pass();
    }
  }

  /**
   * Without mechanism evidence a rare identifier of one other tenant is probable where the logs
   * could not show how the response was served (the reason says why), of several suspect.
   */
  public record TextAlone() implements EvidenceRule<IdentifierFacts> {
    public String name() {
      return "text-alone";
    }

    public Verdict apply(Mechanism m, IdentifierFacts f) {
      if (f.canary() || m.decodedOverForeignKv()) {
        return Verdict.pass();
      }
      if (f.otherTenants().size() != 1) {
        return Verdict.cap(name(), Confidence.SUSPECT, "no mechanism evidence; " + f.otherTenants().size()
            + " other tenants held it");
      }
      return m.servedNormally() ? Verdict.pass() // ServedNormally decided it
          : Verdict.cap(name(), Confidence.PROBABLE, "no mechanism evidence, and none could show: "
              + m.observation().phrase() + "; a rare identifier of one other tenant");
    }
  }

  public record ForeignKv() implements EvidenceRule<IdentifierFacts> {
    public String name() {
      return "foreign-kv";
    }

    public Verdict apply(Mechanism m, IdentifierFacts f) {
      return m.decodedOverForeignKv()
          ? Verdict.note(name(), "decoded over foreign KV: " + String.join(", ", m.foreignKv())) : Verdict.pass();
    }
  }
}

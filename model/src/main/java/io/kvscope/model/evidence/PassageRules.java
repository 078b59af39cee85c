package io.kvscope.model.evidence;

import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.fingerprint.SharedSpan;
import io.kvscope.model.fingerprint.SpanVerifier;
import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.TokenizedText;
import java.util.List;

/**
 * The rules that decide whether a verbatim passage of a response is another request's data, and
 * how sure that is. Real traffic repeats itself across tenants (popular questions answered alike,
 * system prompts, pasted documents), so a verbatim passage alone proves little; what separates a
 * leak from a coincidence is whether the engine could have put another request's KV into the reply.
 *
 * <p>In order: {@link TooShort}, {@link OwnPromptExplains}, {@link NoHolderWithinReach},
 * {@link PublicText}, {@link SameAnswer}, {@link StockPhrasing}, {@link CommonShortRun},
 * {@link OwnTenantLikeliest}, {@link OwnTenantAlsoHeld}, {@link ServedNormally}, {@link TextAlone},
 * {@link ForeignKv}, {@link CommonTextNotSole}. The three that explain text by
 * the recipient's own request (own prompt, public text, same answer) do not apply to a response
 * whose prompt the engine never prefilled: nothing in that prompt reached the model.
 */
public final class PassageRules {

  /** The shortest run that counts on a response decoded over foreign KV. */
  public static final int MIN_WORDS = 12;

  private PassageRules() {}

  /**
   * The standard chain.
   *
   * @param t T, the shortest run that counts elsewhere (twice that on a response served normally)
   * @param publicTenants a passage more tenants than this hold is public text (the learned
   *     boilerplate cut-off)
   */
  public static RuleChain<PassageFacts> chain(int t, int publicTenants) {
    return new RuleChain<>(List.of(new TooShort(t), new OwnPromptExplains(), new NoHolderWithinReach(),
        new PublicText(publicTenants), new SameAnswer(), new StockPhrasing(), new CommonShortRun(t, publicTenants),
        new OwnTenantLikeliest(), new OwnTenantAlsoHeld(), new ServedNormally(t), new TextAlone(t), new ForeignKv(),
        new CommonTextNotSole(t)));
  }

  /**
   * The shortest run that can be evidence on a response with {@code mechanism}: {@value #MIN_WORDS}
   * words where it was decoded over foreign KV, 2T elsewhere (shorter runs are what stock phrasing
   * and chance share). Runs below it need not even be looked for.
   */
  public static int minimumWords(Mechanism mechanism, int t) {
    return mechanism.decodedOverForeignKv() ? MIN_WORDS : 2 * t;
  }

  /**
   * The ranges of {@code response} that its own {@code prompt} holds, found down to the shortest
   * run that counts anywhere ({@value #MIN_WORDS} words), not the response's own minimum: a quote of
   * the prompt under 2T words behind a common lead-in ("The document says:") makes a longer run.
   */
  public static List<TextRange> ownPromptRanges(SpanVerifier verifier, TokenizedText response, TokenizedText prompt) {
    return verifier.verify(response, prompt, MIN_WORDS).stream().map(SharedSpan::recipient).toList();
  }

  /** Runs below {@link #minimumWords} are never evidence. */
  public record TooShort(int t) implements EvidenceRule<PassageFacts> {
    public String name() {
      return "too-short";
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      int minimum = minimumWords(m, t);
      return p.words() < minimum
          ? Verdict.drop(name(), p.words() + " words, under " + minimum + (m.decodedOverForeignKv() ? ""
              : " on a response with no mechanism evidence"))
          : Verdict.pass();
    }
  }

  /** Text the recipient's own (prefilled) prompt holds explains itself. */
  public record OwnPromptExplains() implements EvidenceRule<PassageFacts> {
    public String name() {
      return "own-prompt";
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      return !m.neverPrefilled() && p.ownPromptHolds()
          ? Verdict.drop(name(), "the recipient's own prompt holds it") : Verdict.pass();
    }
  }

  /** A passage no earlier request within reach of the recipient's decode pool held came from no one's pages. */
  public record NoHolderWithinReach() implements EvidenceRule<PassageFacts> {
    public String name() {
      return "no-holder-within-reach";
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      return p.candidates().isEmpty()
          ? Verdict.drop(name(), "no earlier request on its decode node and engine run held it") : Verdict.pass();
    }
  }

  /**
   * Text many tenants hold (system prompts, licences, public documents) is what a model may write
   * by itself; not on a response whose prompt was never prefilled, where nothing else explains it.
   */
  public record PublicText(int publicTenants) implements EvidenceRule<PassageFacts> {
    public String name() {
      return "public-text";
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      return !m.neverPrefilled() && p.tenantsInIndex() > publicTenants
          ? Verdict.drop(name(), "held by " + p.tenantsInIndex() + " tenants (more than " + publicTenants + ")")
          : Verdict.pass();
    }
  }

  /**
   * A model answers the same question the same way whatever the tenant: an answer another request
   * that asked the recipient's question also received is at most suspect (not where the prompt
   * was never prefilled: then the reply cannot come from the question).
   */
  public record SameAnswer() implements EvidenceRule<PassageFacts> {
    public String name() {
      return "same-answer";
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      return !m.neverPrefilled() && p.answersSameQuestion()
          ? Verdict.cap(name(), Confidence.SUSPECT, "the reply another request that asked the same question received")
          : Verdict.pass();
    }
  }

  /**
   * A model's stock sentences combine freely, so a rare run of common sentences says little: no
   * evidence without mechanism evidence; with it, a run only one tenant within reach held came
   * from that tenant's pages, while one several tenants held is most likely the model's own
   * phrasing (suspect).
   */
  public record StockPhrasing() implements EvidenceRule<PassageFacts> {
    public String name() {
      return "stock-phrasing";
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      if (!p.stockPhrasing()) {
        return Verdict.pass();
      }
      if (!m.decodedOverForeignKv()) {
        return Verdict.drop(name(), "a rare run of sentences many tenants' replies hold");
      }
      if (p.candidateTenants().size() <= 1) {
        return Verdict.note(name(), "stock sentences, but only one tenant within reach held the run");
      }
      return Verdict.cap(name(), Confidence.SUSPECT,
          "stock sentences " + p.candidateTenants().size() + " tenants within reach held");
    }
  }

  /**
   * A run shorter than T that many tenants hold is a common phrase, even over foreign KV; except
   * on a response whose prompt was never prefilled when another tenant within reach wrote it in a
   * prompt: nothing of the recipient's explains it, and a model does not write a tenant's prompt.
   */
  public record CommonShortRun(int t, int publicTenants) implements EvidenceRule<PassageFacts> {
    public String name() {
      return "common-short-run";
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      if (p.words() >= t || p.tenantsInIndex() <= publicTenants) {
        return Verdict.pass();
      }
      if (m.neverPrefilled() && p.otherTenantsPromptHeld()) {
        return Verdict.note(name(), p.words() + " words that " + p.tenantsInIndex()
            + " tenants hold, but another tenant's prompt within reach held them and this prompt was never prefilled");
      }
      return Verdict.cap(name(), Confidence.SUSPECT, p.words() + " words that " + p.tenantsInIndex() + " tenants hold");
    }
  }

  /**
   * Other tenants held it within reach, but the request the mechanism ranks likeliest (same decode
   * node, same engine run, latest end) is the recipient's own tenant's: most likely its own data
   * came back, so it is at most suspect.
   */
  public record OwnTenantLikeliest() implements EvidenceRule<PassageFacts> {
    public String name() {
      return "own-tenant-likeliest";
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      return p.ownTenantLikeliest()
          ? Verdict.cap(name(), Confidence.SUSPECT, "the likeliest holder within reach is the recipient's own tenant's")
          : Verdict.pass();
    }
  }

  /** When the recipient's own tenant also held it within reach, it may be the tenant's own data. */
  public record OwnTenantAlsoHeld() implements EvidenceRule<PassageFacts> {
    public String name() {
      return "own-tenant-also-held";
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      return p.candidateTenants().contains(p.recipientTenant()) && !p.otherTenants().isEmpty()
          ? Verdict.cap(name(), Confidence.PROBABLE, "the recipient's own tenant also held it within reach")
          : Verdict.pass();
    }
  }

  /**
   * On a response the engine logs show was served normally, no one's pages reached the reply:
   * text specific to one other tenant is then a coincidence to review (a question asked after
   * other pasted text, a standard answer), never a counted leak; at most suspect, and the report
   * lists it apart. The same answer to the same question is same-answer's, not for review.
   */
  public record ServedNormally(int t) implements EvidenceRule<PassageFacts> {
    public String name() {
      return Evidence.OfLeak.SERVED_NORMALLY_RULE;
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      // The same answer to the same question is explained already (same-answer): not for review.
      return m.servedNormally() && p.specificToOneOtherTenant(t) && !p.answersSameQuestion()
          ? Verdict.cap(name(), Confidence.SUSPECT, "text shared with one other tenant, no leak mechanism in the logs: "
              + "review (" + p.words() + " words; " + m.observation().phrase() + ")")
          : Verdict.pass();
    }
  }

  /**
   * Without mechanism evidence, text is at most probable, and only where it is specific to one
   * other tenant (a passage of at least 2T words that no other tenant in the index holds) and the
   * logs could not show how the response was served (no engine log for it, a gap, an rid that
   * joined nothing): the reason says which.
   */
  public record TextAlone(int t) implements EvidenceRule<PassageFacts> {
    public String name() {
      return "text-alone";
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      if (m.decodedOverForeignKv()) {
        return Verdict.pass();
      }
      if (!p.specificToOneOtherTenant(t)) {
        return Verdict.cap(name(), Confidence.SUSPECT, "no mechanism evidence; held by " + p.tenantsInIndex()
            + " tenants in the index");
      }
      return m.servedNormally() ? Verdict.pass() // ServedNormally decided it
          : Verdict.cap(name(), Confidence.PROBABLE, "no mechanism evidence, and none could show: "
              + m.observation().phrase() + "; " + p.words() + " words only one other tenant holds");
    }
  }

  /** Another tenant's passage in a response decoded over foreign KV is confirmed: says why. */
  public record ForeignKv() implements EvidenceRule<PassageFacts> {
    public String name() {
      return "foreign-kv";
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      return m.decodedOverForeignKv()
          ? Verdict.note(name(), "decoded over foreign KV: " + String.join(", ", m.foreignKv())) : Verdict.pass();
    }
  }

  /**
   * A short passage many tenants hold across the index is not one tenant's text: phrasing a model
   * writes anyway (how an answer opens, a sentence many documents hold), so that only one request
   * within reach held it is a coincidence, not evidence of whose pages the reply read. Its one holder
   * is named a candidate, never the sole source; the finding says why. Short means under 2T words:
   * measured on generated incidents, every passage of 2T words or more that one request within reach
   * held came from it, however many tenants held it elsewhere. Many means more than
   * {@link #MAX_TENANTS_FOR_SOLE}, the bound past which an identifier is public too, not more than the
   * learned public-text cut-off: on 20 incidents with the traps, every wrong sole source was a short
   * passage 4 to 12 tenants held, 11 of the 29 at or under the cut-off, and the true sources of 2 or 3
   * tenants' passages stay sole (docs/overlap-method.md, section 5).
   */
  public record CommonTextNotSole(int t) implements EvidenceRule<PassageFacts> {
    /** A short passage held by more tenants than this in the index names no sole source. */
    public static final int MAX_TENANTS_FOR_SOLE = IdentifierRules.MAX_TENANTS_FOR_RARE;

    public static final String NAME = "common-text-not-sole";

    public String name() {
      return NAME;
    }

    public Verdict apply(Mechanism m, PassageFacts p) {
      return p.candidates().size() == 1 && p.words() < 2 * t && p.tenantsInIndex() > MAX_TENANTS_FOR_SOLE
          ? Verdict.note(name(), "one request within reach held these " + p.words() + " words, but "
              + p.tenantsInIndex() + " tenants hold them in the index (more than " + MAX_TENANTS_FOR_SOLE
              + "): not one tenant's text, a candidate, not the sole source")
          : Verdict.pass();
    }
  }

  /** Whether the one request within reach that held the passage is its sole source ({@link CommonTextNotSole}). */
  public static boolean makesSoleSource(PassageFacts p, Decision d) {
    return p.candidates().size() == 1
        && d.verdicts().stream().noneMatch(v -> v.rule().equals(CommonTextNotSole.NAME));
  }
}

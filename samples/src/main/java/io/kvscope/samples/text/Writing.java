package io.kvscope.samples.text;

import io.kvscope.samples.random.Rng;

/** The prose routines the simulation composes prompts and replies from. */
public final class Writing {

  private Writing() {}

  /**
   * Private prose of about {@code tokens} tokens, bracketed as private: business sentences with
   * request-unique identifiers, now and then a tenant-wide secret, and a canary marker if asked.
   */
  public static void privateProse(Composed.Builder cb, Voice voice, Rng rng, int tokens, boolean canary) {
    cb.beginPrivate();
    TokenText.Builder out = cb.out();
    int target = out.tokenCount() + Math.max(1, tokens);
    boolean canaryDue = canary;
    while (out.tokenCount() < target) {
      double u = rng.nextDouble();
      if (canaryDue && u < 0.2) {
        voice.sentence(Templates.CANARY, out, rng);
        canaryDue = false;
      } else if (u < 0.30) {
        voice.sentence(rng.pick(Templates.IDENTIFIER), out, rng);
      } else if (u < 0.36) {
        voice.sentence(rng.pick(Templates.SECRET), out, rng);
      } else {
        voice.sentence(rng.pick(Templates.REQUEST), out, rng);
      }
    }
    if (canaryDue) {
      voice.sentence(Templates.CANARY, out, rng);
    }
    cb.endPrivate();
  }

  /** An assistant's reply prose of about {@code tokens} tokens (not bracketed). */
  public static void replyProse(TokenText.Builder out, Voice voice, Rng rng, int tokens) {
    voice.prose(Templates.REPLY, tokens, out, rng);
  }

  /** {@code sentences} sentences of neutral connective prose. */
  public static void filler(TokenText.Builder out, Rng rng, int sentences) {
    Voice v = Voice.generic();
    for (int i = 0; i < sentences; i++) {
      v.sentence(rng.pick(Templates.FILLER), out, rng);
    }
  }

  /** A lead-in such as {@code "The source also notes :"} before a verbatim passage. */
  public static void fillerLead(TokenText.Builder out, Rng rng) {
    Voice.generic().sentence(rng.pick(Templates.FILLER_LEAD), out, rng);
  }

  /** Words that introduce a single identifier ({@code "The records mention"}). */
  public static void fillerIdentifierLead(TokenText.Builder out, Rng rng) {
    Voice.generic().sentence(rng.pick(Templates.FILLER_ID_BEFORE), out, rng);
  }
}

package io.kvscope.model.evidence;

import io.kvscope.model.finding.Confidence;

/**
 * What one rule said about one piece of evidence: nothing, a note that goes into the evidence, a
 * cap on the confidence, or that it is no evidence at all; with the rule's name and its reason.
 */
public record Verdict(String rule, Effect effect, Confidence cap, String reason) {

  public enum Effect { PASS, NOTE, CAP, DROP }

  private static final Verdict PASS = new Verdict("", Effect.PASS, Confidence.CONFIRMED, "");

  public static Verdict pass() {
    return PASS;
  }

  public static Verdict note(String rule, String reason) {
    return new Verdict(rule, Effect.NOTE, Confidence.CONFIRMED, reason);
  }

  public static Verdict cap(String rule, Confidence cap, String reason) {
    return new Verdict(rule, Effect.CAP, cap, reason);
  }

  public static Verdict drop(String rule, String reason) {
    return new Verdict(rule, Effect.DROP, Confidence.SUSPECT, reason);
  }

  /** {@code rule: reason}, as the evidence lists it. */
  public String line() {
    return rule + ": " + reason;
  }
}

package io.kvscope.samples.truth;

import java.time.Instant;
import java.util.List;

/**
 * Text of a response another tenant's request also held, where that is not a leak: what an
 * analysis reading text alone gets wrong. Only in incidents generated with traps.
 *
 * @param requestId the response's gateway id
 * @param time its gateway start time
 * @param kind {@code common_opening}: a leaked stub reply opens with phrasing many tenants hold, and
 *     its one holder within reach ({@code holders}) is not a source; {@code pasted_question} or
 *     {@code near_duplicate}: a question another tenant asked bare, asked after pasted text or with
 *     other last words, answered as the bare one was ({@code holders}: that request) and served
 *     normally, not leaked
 * @param responseStart char offset of the shared text in the response content
 * @param responseEnd exclusive end offset
 * @param words its length in words
 * @param tenants for a common opening, how many tenants had held the text across the incident by
 *     then; 0 otherwise
 */
public record DecoyTruth(String requestId, String tenant, Instant time, String kind, int responseStart,
    int responseEnd, int words, List<HolderTruth> holders, int tenants) {

  public static final String COMMON_OPENING = "common_opening";

  public DecoyTruth {
    holders = List.copyOf(holders);
  }

  /** A served-normally request answered as another tenant's bare question was. */
  public boolean servedNormally() {
    return !COMMON_OPENING.equals(kind);
  }
}

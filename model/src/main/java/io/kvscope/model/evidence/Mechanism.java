package io.kvscope.model.evidence;

import java.util.List;

/**
 * What the logs say about how a response was produced, independent of its text.
 *
 * @param neverPrefilled the engine never prefilled its prompt (over-length accepted, prefill
 *     underrun): its reply was decoded over whatever the reserved pages held, and nothing in its
 *     own prompt can explain any of it
 * @param foreignKv facts that it was decoded over other requests' KV (over-length accepted,
 *     prefill underrun, transfer or bootstrap failure, canary or checksum violation), as phrases
 * @param supporting facts that fit a leak but do not show one (a time-to-first-token anomaly, a
 *     vulnerable window), as phrases
 */
public record Mechanism(boolean neverPrefilled, List<String> foreignKv, List<String> supporting) {

  public Mechanism {
    foreignKv = List.copyOf(foreignKv);
    supporting = List.copyOf(supporting);
  }

  /** No evidence either way. */
  public static Mechanism none() {
    return new Mechanism(false, List.of(), List.of());
  }

  /** Whether the response was decoded over foreign KV. */
  public boolean decodedOverForeignKv() {
    return !foreignKv.isEmpty();
  }
}

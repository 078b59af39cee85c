package io.kvscope.ingest.record;

import java.util.Locale;

/** The part an engine process plays in a (possibly disaggregated) deployment. */
public enum NodeRole {
  PREFILL,
  DECODE,
  /** Prefill and decode in one process (SGLang {@code disaggregation_mode='null'}, vLLM). */
  UNIFIED,
  UNKNOWN;

  /** Maps SGLang's {@code disaggregation_mode} values; anything else is {@link #UNKNOWN}. */
  public static NodeRole fromDisaggregationMode(String mode) {
    if (mode == null) {
      return UNKNOWN;
    }
    return switch (mode.toLowerCase(Locale.ROOT)) {
      case "prefill" -> PREFILL;
      case "decode" -> DECODE;
      case "null", "none", "" -> UNIFIED;
      default -> UNKNOWN;
    };
  }
}

package io.kvscope.probe.canary;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.kvscope.model.finding.Evidence;

/**
 * Evidence of an over-length prompt whose first token came sooner than the fitted prefill of its
 * length allows. Times in milliseconds, to one decimal.
 */
public record FastFirstTokenEvidence(String api, double ttftMs, long promptTokens,
    @JsonProperty("prefill_ms_per_1k_tokens") double prefillMsPer1kTokens, double leastPrefillMs, String expected,
    String observed) implements Evidence.Check {}

package io.kvscope.samples.truth;

import java.time.Instant;

/**
 * A request the fleet refused with HTTP 400.
 *
 * @param requestId the gateway's id: LiteLLM's call id, or {@code traceId:spanId} for OTLP spans
 * @param reason {@code context_length} (tokenizer check) or {@code max_input_length} (scheduler check)
 * @param overPool whether the prompt was longer than the prefill KV pool
 */
public record RejectionTruth(String requestId, String engineRid, String tenant, String channel, Instant time,
    long promptTokens, int statusCode, String reason, long limit, boolean overPool, String prefillNode) {}

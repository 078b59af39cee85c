package io.kvscope.samples.truth;

import java.time.Instant;

/**
 * A prompt longer than its prefill node's real limit that got HTTP 200 through the buggy path.
 *
 * @param leak {@code cross_tenant}, {@code same_tenant} or {@code none}
 */
public record OverLengthTruth(String requestId, String engineRid, String tenant, String deployment,
    String prefillNode, String decodeNode, Instant time, long promptTokens, long promptChars,
    long reportedPromptTokens, long effectiveLimit, int statusCode, String leak) {}

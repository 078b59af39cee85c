package io.kvscope.probe.canary;

import io.kvscope.model.finding.Evidence;

/**
 * Evidence of a prompt past a limit that the server took and answered.
 *
 * @param limit which limit it was past: the smallest KV pool, or the context length
 * @param reportedPromptTokens the server's own count, or null
 * @param ttftMs milliseconds to the first generated text, or null when none came
 */
public record OverLengthProbeEvidence(String api, int status, String limit, long limitTokens, int promptChars,
    long estimatedPromptTokens, Long reportedPromptTokens, Long completionTokens, Double ttftMs, String expected,
    String observed) implements Evidence.Check {}

package io.kvscope.samples.sim;

import io.kvscope.samples.text.IdCategory;

/**
 * One piece of a stale page's earlier owner that a stub's reply reproduced verbatim.
 *
 * @param part {@code prompt} or {@code generation}
 * @param category the identifier class for single-identifier fragments, else null
 * @param responseStart char offset in the recipient's response content (inclusive)
 * @param responseEnd char offset in the recipient's response content (exclusive)
 * @param sourceMessageIndex index in the source's {@code messages} for prompt fragments, -1 otherwise
 * @param sourceStart char offset in that message's content, or in the source's response content
 */
public record Fragment(
    RequestPlan source,
    String part,
    boolean identifier,
    IdCategory category,
    int matchedTokens,
    int responseStart,
    int responseEnd,
    int sourceMessageIndex,
    int sourceStart,
    int sourceEnd) {}

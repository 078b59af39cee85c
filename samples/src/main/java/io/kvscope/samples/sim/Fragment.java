package io.kvscope.samples.sim;

import io.kvscope.samples.text.IdCategory;
import java.util.List;

/**
 * One piece of a stale page's earlier owner that a stub's reply reproduced verbatim.
 *
 * @param source the request whose page held it
 * @param part {@code prompt} or {@code generation}
 * @param category the identifier class for single-identifier fragments, else null
 * @param words its length in words ({@link io.kvscope.samples.text.Words})
 * @param responseStart char offset in the recipient's response content (inclusive)
 * @param responseEnd char offset in the recipient's response content (exclusive)
 * @param sourceMessageIndex index in the source's {@code messages} for prompt fragments, -1 otherwise
 * @param sourceStart char offset in that message's content, or in the source's response content
 * @param holders every request within the recipient's reach that held it word for word, the source included
 * @param notExpected why no analysis is expected to find it ({@code below_floor}: under 12 words;
 *     {@code foreign_canary}: a canary of another issuer's format), or null
 */
public record Fragment(
    RequestPlan source,
    String part,
    boolean identifier,
    IdCategory category,
    int matchedTokens,
    int words,
    int responseStart,
    int responseEnd,
    int sourceMessageIndex,
    int sourceStart,
    int sourceEnd,
    List<RequestPlan> holders,
    String notExpected) {}

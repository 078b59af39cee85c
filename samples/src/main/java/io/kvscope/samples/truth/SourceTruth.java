package io.kvscope.samples.truth;

import java.time.Instant;
import java.util.List;

/**
 * One fragment of an earlier request reproduced in a leaked response.
 *
 * @param requestId gateway id of the request whose stale page held the text
 * @param time that request's gateway start time
 * @param part {@code prompt} or {@code generation}
 * @param kind {@code span} (a verbatim token span) or {@code identifier} (one identifier)
 * @param category identifier class ({@code email}, {@code phone}, {@code account}, {@code uuid},
 *     {@code canary}) for identifiers, null for spans
 * @param responseStart char offset of the fragment in the recipient's response content
 * @param responseEnd exclusive end offset in the recipient's response content
 * @param sourceMessageIndex for prompt fragments, the index in the source's messages; -1 for generation
 * @param sourceStart char offset in that message's content (prompt) or in the source's response content
 * @param alsoIn later requests of the same conversation whose prompts re-sent the same text
 */
public record SourceTruth(String requestId, String engineRid, String tenant, Instant time, String part, String kind,
    String category, int matchedTokens, int responseStart, int responseEnd, int sourceMessageIndex, int sourceStart,
    int sourceEnd, List<String> alsoIn) {

  public SourceTruth {
    alsoIn = List.copyOf(alsoIn);
  }
}

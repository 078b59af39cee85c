package io.kvscope.samples.truth;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * One fragment of an earlier request reproduced in a leaked response.
 *
 * @param requestId gateway id of the request whose stale page held the text (the true source)
 * @param time that request's gateway start time
 * @param part {@code prompt} or {@code generation}
 * @param kind {@code span} (a verbatim token span) or {@code identifier} (one identifier)
 * @param category identifier class ({@code email}, {@code phone}, {@code account}, {@code uuid},
 *     {@code canary}) for identifiers, null for spans
 * @param words the fragment's length in words (letter and digit runs; an e-mail address is one)
 * @param responseStart char offset of the fragment in the recipient's response content
 * @param responseEnd exclusive end offset in the recipient's response content
 * @param sourceMessageIndex for prompt fragments, the index in the source's messages; -1 for generation
 * @param sourceStart char offset in that message's content (prompt) or in the source's response content
 * @param holders every request within the recipient's reach (same decode node and engine run,
 *     prompt prefilled, started before the recipient, at most 7 days before) whose prompt or reply
 *     held the fragment word for word, the source included: who the logs cannot tell apart from it
 * @param notExpected why no analysis is expected to find the fragment, or null (then absent from the
 *     JSON): {@code below_floor} (under 12 words) or {@code foreign_canary} (a canary in another
 *     issuer's format than {@code KVCANARY-})
 */
public record SourceTruth(String requestId, String engineRid, String tenant, Instant time, String part, String kind,
    String category, int matchedTokens, int words, int responseStart, int responseEnd, int sourceMessageIndex,
    int sourceStart, int sourceEnd, List<HolderTruth> holders,
    @JsonInclude(JsonInclude.Include.NON_NULL) String notExpected) {

  public SourceTruth {
    holders = List.copyOf(holders);
  }

  /** A fragment an analysis is expected to find. */
  public SourceTruth(String requestId, String engineRid, String tenant, Instant time, String part, String kind,
      String category, int matchedTokens, int words, int responseStart, int responseEnd, int sourceMessageIndex,
      int sourceStart, int sourceEnd, List<HolderTruth> holders) {
    this(requestId, engineRid, tenant, time, part, kind, category, matchedTokens, words, responseStart, responseEnd,
        sourceMessageIndex, sourceStart, sourceEnd, holders, null);
  }

  /** True unless the fragment is under the floor or a canary of another format. */
  public boolean expected() {
    return notExpected == null;
  }

  /** True when no other request within reach held the fragment: the logs can name its source alone. */
  public boolean soleHolder() {
    return holders.stream().allMatch(h -> h.requestId().equals(requestId));
  }
}

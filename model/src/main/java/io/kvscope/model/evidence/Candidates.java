package io.kvscope.model.evidence;

import java.util.Comparator;
import java.util.List;

/**
 * Orders the requests that could have been a passage's origin by what the mechanism says: a
 * recipient reads pages of its own decode node, released in its own engine run, and the later a
 * request ended, the likelier its pages still held its KV (a prefix cache evicts the least
 * recently used first, and every later allocation is another chance to overwrite a released
 * page). So: same decode node, then same engine run, then latest end first; request id on a tie,
 * then the place in request order (ids can repeat), so the order does not depend on the index. It is a ranking of likelihood, not an attribution:
 * the logs do not say which free pages the allocator handed out.
 */
public final class Candidates {

  /** The mechanism's order, as a comparator. */
  public static final Comparator<Holder> MECHANISM_ORDER = Comparator
      .comparing((Holder h) -> !h.sameDecodeNode())
      .thenComparing(h -> !h.sameEngineRun())
      .thenComparing(Comparator.comparingLong(Holder::end).reversed())
      .thenComparing(Holder::requestId)
      .thenComparingInt(Holder::request);

  private Candidates() {}

  public static List<Holder> ranked(List<Holder> holders) {
    return holders.stream().sorted(MECHANISM_ORDER).toList();
  }

  /** Whether the likeliest origin, by {@link #MECHANISM_ORDER}, is a request of {@code tenant}. */
  public static boolean likeliestIsOf(List<Holder> holders, String tenant) {
    return holders.stream().min(MECHANISM_ORDER).map(h -> h.tenant().equals(tenant)).orElse(false);
  }
}

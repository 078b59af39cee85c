package io.kvscope.analysis.evidence;

import java.util.Comparator;
import java.util.List;

/**
 * Orders the requests that could have been a passage's origin by what the mechanism says: a
 * recipient reads pages of its own decode node, released in its own engine run, and a page-lowest-
 * first allocator hands out the most recently released pages first. So: same decode node, then
 * same engine run, then the one whose pages were released last (latest end) first; request id on
 * a tie, so the order does not depend on the index.
 */
public final class Candidates {

  /** The mechanism's order, as a comparator. */
  public static final Comparator<Holder> MECHANISM_ORDER = Comparator
      .comparing((Holder h) -> !h.sameDecodeNode())
      .thenComparing(h -> !h.sameEngineRun())
      .thenComparing(Comparator.comparingLong(Holder::end).reversed())
      .thenComparing(Holder::requestId);

  private Candidates() {}

  public static List<Holder> ranked(List<Holder> holders) {
    return holders.stream().sorted(MECHANISM_ORDER).toList();
  }
}

package io.kvscope.samples.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The requests one run of a decode engine served (prefilled prompt and generated reply written
 * into its pool), oldest first: everyone whose pages a later stub could have attended over. A
 * restart starts a new log, as it starts a new pool. Entries older than {@link #HORIZON_MS} are
 * dropped: the truth names holders within the reach the analysis assumes by default (7 days).
 */
final class ReachLog {

  static final long HORIZON_MS = 7 * 86_400_000L;

  private final ArrayDeque<RequestPlan> served = new ArrayDeque<>();

  /** {@code p} got its pages and wrote its prompt and reply into them. */
  void add(RequestPlan p) {
    served.addLast(p);
    while (!served.isEmpty() && served.peekFirst().arrival < p.arrival - 2 * HORIZON_MS) {
      served.removeFirst();
    }
  }

  /**
   * Requests whose pages were written before {@code recipient}'s were reserved, that started before
   * it, at most {@link #HORIZON_MS} before.
   */
  List<RequestPlan> before(RequestPlan recipient) {
    List<RequestPlan> out = new ArrayList<>();
    for (Iterator<RequestPlan> it = served.iterator(); it.hasNext(); ) {
      RequestPlan e = it.next();
      if (e != recipient && e.arrival < recipient.arrival && e.decodeAllocAt <= recipient.decodeAllocAt
          && recipient.arrival - e.arrival <= HORIZON_MS) {
        out.add(e);
      }
    }
    return out;
  }
}

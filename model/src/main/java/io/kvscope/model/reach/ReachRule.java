package io.kvscope.model.reach;

import java.util.Arrays;

/**
 * Whether a request's KV pages could still have been in a recipient's decode pool when the
 * recipient decoded over stale pages: the mechanism's limits on who can have leaked to whom.
 *
 * <p>A source must have started before the recipient, within the horizon (freed pages are
 * overwritten sooner or later), on the recipient's decode node (each node has its own pool), and
 * in the same run of that node's engine process: a restart allocates a new pool, so nothing from
 * before it can be read after. Its text must also have been written into the pool. A request the
 * engine never prefilled (over-length accepted, prefill underrun) left only a placeholder and its
 * reply, and that reply was written from other requests' pages: whatever of it a later response
 * repeats belongs to those requests, not to its tenant. A request turned away before its prefill
 * (a 4xx refusal, an engine rejection) wrote nothing at all.
 *
 * <p>Where a fact is unknown (no engine log for a node, no restart seen), the pair stays possible.
 *
 * <p>Decode nodes are given as ordinals ({@code 0..n-1}, {@link #UNKNOWN_NODE} when no engine line
 * named one) and times in epoch ms on the gateway's clock, so a join can ask per posting without
 * allocating.
 */
public final class ReachRule {

  public static final int UNKNOWN_NODE = -1;

  private final long horizonMillis;
  /** Per decode-node ordinal: the gateway-clock start of each engine process after the first, ascending. */
  private final long[][] restarts;

  /**
   * @param horizonMillis how long before a recipient a source may lie
   * @param restarts per decode-node ordinal, the starts of its engine after the first (any order)
   */
  public ReachRule(long horizonMillis, long[][] restarts) {
    if (horizonMillis <= 0) {
      throw new IllegalArgumentException("the horizon must be positive, was " + horizonMillis + " ms");
    }
    this.horizonMillis = horizonMillis;
    this.restarts = new long[restarts.length][];
    for (int node = 0; node < restarts.length; node++) {
      this.restarts[node] = Arrays.stream(restarts[node]).sorted().distinct().toArray();
    }
  }

  /**
   * Whether a source that started at {@code sourceStart} on decode node {@code sourceNode} and
   * wrote its text into the pool ({@code wroteKv}) can have been among the pages a recipient that
   * started at {@code recipientStart} on {@code recipientNode} decoded over.
   */
  public boolean reaches(long sourceStart, int sourceNode, boolean wroteKv, long recipientStart, int recipientNode) {
    if (!wroteKv) {
      return false;
    }
    long gap = recipientStart - sourceStart;
    if (gap <= 0 || gap > horizonMillis) {
      return false;
    }
    if (recipientNode != UNKNOWN_NODE && sourceNode != UNKNOWN_NODE && recipientNode != sourceNode) {
      return false;
    }
    int node = recipientNode != UNKNOWN_NODE ? recipientNode : sourceNode;
    return node == UNKNOWN_NODE || !restartedBetween(node, sourceStart, recipientStart);
  }

  /** Whether both decoded on one node, known on both sides. */
  public boolean sameNode(int sourceNode, int recipientNode) {
    return recipientNode != UNKNOWN_NODE && recipientNode == sourceNode;
  }

  /** Whether no restart of the decode node's engine (the recipient's, else the source's) lies between the two starts. */
  public boolean sameRun(long sourceStart, int sourceNode, long recipientStart, int recipientNode) {
    int node = recipientNode != UNKNOWN_NODE ? recipientNode : sourceNode;
    return node != UNKNOWN_NODE && !restartedBetween(node, sourceStart, recipientStart);
  }

  /** How many times {@code node}'s engine restarted. */
  public int restartCount(int node) {
    return restarts[node].length;
  }

  /** Whether a startup of {@code node} lies in {@code (from, to]}. */
  private boolean restartedBetween(int node, long from, long to) {
    long[] startups = restarts[node];
    int i = Arrays.binarySearch(startups, from);
    int next = i >= 0 ? i + 1 : -i - 1; // the first startup after {@code from}
    return next < startups.length && startups[next] <= to;
  }
}

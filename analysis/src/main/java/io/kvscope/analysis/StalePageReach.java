package io.kvscope.analysis;

import io.kvscope.ingest.record.ConfigEpoch;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
 */
public final class StalePageReach {

  private final RequestColumns columns;
  private final long horizonMillis;
  /** Per decode-node ordinal: the gateway-clock start of each engine process after the first, ascending. */
  private final long[][] restarts;
  /** Requests whose pages cannot be another's stale KV: never prefilled, or turned away before it. */
  private final BitSet notASource;

  private StalePageReach(RequestColumns columns, long horizonMillis, long[][] restarts, BitSet notASource) {
    this.columns = columns;
    this.horizonMillis = horizonMillis;
    this.restarts = restarts;
    this.notASource = notASource;
  }

  /**
   * Built from which requests were never prefilled ({@link Mechanisms}) and the nodes' config
   * epochs (one per engine startup, from the engine logs).
   */
  public static StalePageReach of(AnalysisContext context, RequestColumns columns, Mechanisms mechanisms) {
    BitSet notASource = mechanisms.neverPrefilled();
    notASource.or(mechanisms.refused());
    long[][] restarts = new long[columns.nodeCount()][];
    for (int node = 0; node < restarts.length; node++) {
      restarts[node] = restartsOf(context, columns.nodeName(node));
    }
    return new StalePageReach(columns, context.options().sourceHorizon().toMillis(), restarts, notASource);
  }

  /**
   * Startups of {@code node}'s engine after its first, on the gateway's clock. Prometheus
   * snapshots are not startups; an epoch split within one startup (data-parallel ranks reporting
   * different pools) comes before the node serves anything, so treating it as one costs nothing.
   */
  private static long[] restartsOf(AnalysisContext context, String node) {
    List<ConfigEpoch> epochs = context.epochs().byNode().getOrDefault(node, List.of());
    return epochs.stream().filter(e -> !e.fromMetrics())
        .mapToLong(e -> context.clocks().toGatewayTime(node, e.start()))
        .sorted().distinct().skip(1).toArray();
  }

  /**
   * Whether {@code source} decoded on {@code recipient}'s decode node (both known) and in the same
   * run of its engine (no restart between their starts).
   */
  public boolean sameNode(int source, int recipient) {
    int node = columns.decodeNode(recipient);
    return node >= 0 && node == columns.decodeNode(source);
  }

  /** Whether no restart of the decode node's engine lies between {@code source} and {@code recipient}. */
  public boolean sameRun(int source, int recipient) {
    int node = columns.decodeNode(recipient) >= 0 ? columns.decodeNode(recipient) : columns.decodeNode(source);
    return node >= 0 && !restartedBetween(restarts[node], columns.start(source), columns.start(recipient));
  }

  /** Whether {@code source}'s pages could have been among those {@code recipient} decoded over. */
  public boolean reaches(int source, int recipient) {
    if (source == recipient || !columns.isRequest(source) || notASource.get(source)) {
      return false;
    }
    long sourceStart = columns.start(source);
    long recipientStart = columns.start(recipient);
    long gap = recipientStart - sourceStart;
    if (gap <= 0 || gap > horizonMillis) {
      return false;
    }
    int node = columns.decodeNode(recipient);
    int sourceNode = columns.decodeNode(source);
    if (node >= 0 && sourceNode >= 0 && node != sourceNode) {
      return false;
    }
    node = node >= 0 ? node : sourceNode;
    return node < 0 || !restartedBetween(restarts[node], sourceStart, recipientStart);
  }

  /** Whether a startup lies in {@code (from, to]}. */
  private static boolean restartedBetween(long[] startups, long from, long to) {
    int i = Arrays.binarySearch(startups, from);
    int next = i >= 0 ? i + 1 : -i - 1; // the first startup after {@code from}
    return next < startups.length && startups[next] <= to;
  }

  /** Each decode node's restarts, for the report. */
  public Map<String, Integer> restartCounts() {
    Map<String, Integer> counts = new TreeMap<>();
    for (int node = 0; node < restarts.length; node++) {
      counts.put(columns.nodeName(node), restarts[node].length);
    }
    return counts;
  }
}

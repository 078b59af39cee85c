package io.kvscope.analysis;

import io.kvscope.model.evidence.Holder;
import io.kvscope.model.reach.ReachRule;
import java.io.IOException;
import java.util.BitSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * The model's {@link ReachRule} over the index's request documents: who can have leaked to whom,
 * asked per posting with a document's start, decode node and whether it wrote KV, read from the
 * {@link RequestColumns}. Which requests wrote nothing (never prefilled, turned away before it)
 * comes from the {@link Mechanisms}; each decode node's restarts from its config epochs.
 */
public final class StalePageReach {

  private final RequestColumns columns;
  private final ReachRule rule;
  /** Requests whose pages cannot be another's stale KV: never prefilled, or turned away before it. */
  private final BitSet notASource;

  private StalePageReach(RequestColumns columns, ReachRule rule, BitSet notASource) {
    this.columns = columns;
    this.rule = rule;
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
      restarts[node] = context.epochs().restarts(columns.nodeName(node));
    }
    return new StalePageReach(columns, new ReachRule(context.options().sourceHorizon().toMillis(), restarts), notASource);
  }

  /**
   * Whether {@code source} decoded on {@code recipient}'s decode node (both known) and in the same
   * run of its engine (no restart between their starts).
   */
  public boolean sameNode(int source, int recipient) {
    return rule.sameNode(columns.decodeNode(source), columns.decodeNode(recipient));
  }

  /** Whether no restart of the decode node's engine lies between {@code source} and {@code recipient}. */
  public boolean sameRun(int source, int recipient) {
    return rule.sameRun(columns.start(source), columns.decodeNode(source), columns.start(recipient),
        columns.decodeNode(recipient));
  }

  /**
   * Request {@code source} as the rules see a holder of {@code recipient}'s passage: keyed by its
   * place in request order, never by its document.
   */
  public Holder holder(int source, int recipient, boolean inReply) throws IOException {
    return new Holder(columns.order(source), columns.requestId(source), columns.tenantName(source),
        columns.start(source), columns.end(source), sameNode(source, recipient), sameRun(source, recipient), inReply);
  }

  /** Whether {@code source}'s pages could have been among those {@code recipient} decoded over. */
  public boolean reaches(int source, int recipient) {
    // A reply copy is never a source (isSource), nor is a request to a copy of its own; a prompt
    // copy is its request's pages.
    int request = columns.requestDoc(source);
    if (!columns.isSource(source) || request == columns.requestDoc(recipient)) {
      return false;
    }
    return rule.reaches(columns.start(source), columns.decodeNode(source), !notASource.get(request),
        columns.start(recipient), columns.decodeNode(recipient));
  }

  /** Each decode node's restarts, for the report. */
  public Map<String, Integer> restartCounts() {
    Map<String, Integer> counts = new TreeMap<>();
    for (int node = 0; node < columns.nodeCount(); node++) {
      counts.put(columns.nodeName(node), rule.restartCount(node));
    }
    return counts;
  }
}

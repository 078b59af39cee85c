package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.RequestRow;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The prefill limit a request met when its own prefill node is not in the logs (an hour of the
 * node's log is missing, say). One of the prefill nodes that feed its decode node (or, with no
 * decode node either, one of its deployment's) prefilled it, so it met at most the largest of
 * their limits at that time. Which prefill nodes feed which decode node and deployment is learned
 * from the requests whose nodes are known.
 */
final class DeploymentPrefillLimits {

  private final AnalysisContext context;
  private final Map<String, Set<String>> byDecodeNode;
  private final Map<String, Set<String>> byDeployment;

  private DeploymentPrefillLimits(AnalysisContext context, Map<String, Set<String>> byDecodeNode,
      Map<String, Set<String>> byDeployment) {
    this.context = context;
    this.byDecodeNode = byDecodeNode;
    this.byDeployment = byDeployment;
  }

  static DeploymentPrefillLimits learn(AnalysisContext context) throws IOException {
    Map<String, Set<String>> byDecodeNode = new HashMap<>();
    Map<String, Set<String>> byDeployment = new HashMap<>();
    context.forEachRequest(row -> {
      RequestRecord r = row.record();
      if (r.prefillNode() == null) {
        return;
      }
      if (r.decodeNode() != null) {
        byDecodeNode.computeIfAbsent(r.decodeNode(), d -> new TreeSet<>()).add(r.prefillNode());
      }
      if (r.deployment() != null) {
        byDeployment.computeIfAbsent(r.deployment(), d -> new TreeSet<>()).add(r.prefillNode());
      }
    });
    return new DeploymentPrefillLimits(context, byDecodeNode, byDeployment);
  }

  /** The prefill nodes that could have prefilled {@code row}: empty when none are known. */
  Set<String> candidates(RequestRow row) {
    RequestRecord r = row.record();
    Set<String> nodes = r.decodeNode() == null ? null : byDecodeNode.get(r.decodeNode());
    if (nodes == null && r.deployment() != null) {
      nodes = byDeployment.get(r.deployment());
    }
    return nodes == null ? Set.of() : nodes;
  }

  /**
   * The largest real limit (the smaller of context length and pool) among {@code row}'s candidate
   * prefill nodes when it started, or null when there are none or one's limit is unknown then.
   */
  Long largestFor(RequestRow row) {
    Set<String> nodes = candidates(row);
    Long start = row.record().startTime();
    if (nodes.isEmpty() || start == null) {
      return null;
    }
    Long largest = null;
    for (String node : nodes) {
      ConfigEpoch epoch = context.epochs().at(node, start + context.clocks().skew(node));
      Long limit = epoch == null ? null : epoch.effectiveLimit();
      if (limit == null) {
        return null;
      }
      largest = largest == null ? limit : Math.max(largest, limit);
    }
    return largest;
  }
}

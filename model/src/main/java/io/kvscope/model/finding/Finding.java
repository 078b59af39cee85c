package io.kvscope.model.finding;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One thing an analyzer found: about a request (a leak, an over-length admission, an underrun) or
 * about a node's configuration (then {@code requestId} is null and {@code node} names the node).
 *
 * <p>{@code evidence} explains the finding with expected vs observed values; never prompt or
 * response text.
 *
 * @param id stable across runs on the same index: {@code kind:request-or-node[:detail]}
 * @param time when it happened (the request's start, or the config epoch's start)
 * @param node the node the finding is about (prefill node for requests, the node for config)
 */
public record Finding(
    String id,
    FindingKind kind,
    Confidence confidence,
    String requestId,
    String engineRid,
    String tenant,
    Instant time,
    String node,
    String decodeNode,
    List<Source> sources,
    Evidence evidence) {

  public Finding {
    if (id == null || kind == null || confidence == null) {
      throw new IllegalArgumentException("a finding needs an id, a kind and a confidence");
    }
    sources = sources == null ? List.of() : List.copyOf(sources);
    evidence = evidence == null ? Evidence.Other.NONE : evidence;
  }

  /** A finding whose evidence no built-in record describes (a plug-in's): JSON-ready values, in order. */
  public Finding(String id, FindingKind kind, Confidence confidence, String requestId, String engineRid, String tenant,
      Instant time, String node, String decodeNode, List<Source> sources, Map<String, Object> evidence) {
    this(id, kind, confidence, requestId, engineRid, tenant, time, node, decodeNode, sources,
        new Evidence.Other(evidence));
  }

  public Finding withEvidence(Evidence other) {
    return new Finding(id, kind, confidence, requestId, engineRid, tenant, time, node, decodeNode, sources, other);
  }

  /** Tokens of this response attributed to other requests, each passage once ({@link Source#carried}). */
  public long matchedTokens() {
    return Source.carried(sources);
  }

  public boolean isCountedLeak() {
    return kind.isCrossTenantLeak() && confidence.counts();
  }
}

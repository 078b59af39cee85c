package io.kvscope.model.finding;

import java.time.Instant;
import java.util.List;

/**
 * What a finding about a request names of it, read without its texts: the analyzer's storage
 * fills it, the finding is built from its values.
 *
 * @param start its start on the gateway's clock, null when unknown
 * @param engineRid the engine's request id, null where no engine log named it
 */
public record RequestHeader(String requestId, String engineRid, String tenant, Instant start, String prefillNode,
    String decodeNode) {

  /** The finding of {@code kind} about this request; its id is {@code kind:request-id}. */
  public Finding finding(FindingKind kind, Confidence confidence, List<Source> sources, Evidence evidence) {
    return new Finding(kind.id() + ":" + requestId, kind, confidence, requestId, engineRid, tenant, start, prefillNode,
        decodeNode, sources, evidence);
  }
}

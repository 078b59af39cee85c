package io.kvscope.model.evidence;

/**
 * A request that held a passage or identifier word for word.
 *
 * @param doc its document in the index (an opaque handle for the analyzer)
 * @param start its start on the gateway's clock (ms)
 * @param end when it ended, i.e. when its pages were released (ms; its start when unknown)
 * @param sameDecodeNode decoded on the recipient's decode node (false when either is unknown)
 * @param sameEngineRun no restart of that node's engine between it and the recipient
 * @param inReply the passage is in its reply (else in its prompt)
 */
public record Holder(int doc, String requestId, String tenant, long start, long end, boolean sameDecodeNode,
    boolean sameEngineRun, boolean inReply) {}

package io.kvscope.model.evidence;

import java.util.Comparator;

/**
 * A request that held a passage or identifier word for word.
 *
 * @param request its place among the analysis's requests in {@link io.kvscope.model.order.RequestOrder}
 *     (start, then request id): unique where request ids are not (merged and forged ids repeat them),
 *     so it is what a holder is told apart and listed by
 * @param start its start on the gateway's clock (ms)
 * @param end when it ended, i.e. when its pages were released (ms; its start when unknown)
 * @param sameDecodeNode decoded on the recipient's decode node (false when either is unknown)
 * @param sameEngineRun no restart of that node's engine between it and the recipient
 * @param inReply the passage is in its reply (else in its prompt)
 */
public record Holder(int request, String requestId, String tenant, long start, long end, boolean sameDecodeNode,
    boolean sameEngineRun, boolean inReply) {

  /** Earliest request first: the order the rules read holders in, whichever order they were found in. */
  public static final Comparator<Holder> IN_REQUEST_ORDER = Comparator.comparingInt(Holder::request);
}

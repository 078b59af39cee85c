package io.kvscope.model.order;

import java.util.Comparator;

/**
 * A request's place in the one order kvscope bounds and breaks ties by: its start on the gateway's
 * clock, then its request id. Both are facts of the request, so the order is the same whichever
 * order the files were read in and whichever engine reads them.
 *
 * @param start start in epoch ms, {@link Long#MIN_VALUE} when unknown (such requests come first)
 * @param requestId the request's id (the gateway's where there is one)
 */
public record RequestOrder(long start, String requestId) implements Comparable<RequestOrder> {

  public static final Comparator<RequestOrder> ORDER =
      Comparator.comparingLong(RequestOrder::start).thenComparing(RequestOrder::requestId);

  public RequestOrder {
    requestId = requestId == null ? "" : requestId;
  }

  public static RequestOrder of(Long start, String requestId) {
    return new RequestOrder(start == null ? Long.MIN_VALUE : start, requestId);
  }

  @Override
  public int compareTo(RequestOrder other) {
    return ORDER.compare(this, other);
  }
}

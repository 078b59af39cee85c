package io.kvscope.probe.canary;

/**
 * The run's hard caps, enforced at send time: no request leaves once the request count or the
 * estimated token total would pass its cap, whatever the plan said.
 */
final class Budget {

  private final int maxRequests;
  private final long maxTokens;
  private int requests;
  private long tokens;

  Budget(int maxRequests, long maxTokens) {
    this.maxRequests = maxRequests;
    this.maxTokens = maxTokens;
  }

  /** Reserves one request of {@code cost} tokens; false (nothing reserved) when over a cap. */
  synchronized boolean reserve(long cost) {
    if (requests + 1 > maxRequests || tokens + cost > maxTokens) {
      return false;
    }
    requests++;
    tokens += cost;
    return true;
  }

  synchronized int requests() {
    return requests;
  }

  synchronized long tokens() {
    return tokens;
  }
}

package io.kvscope.probe.config;

import java.util.List;

/**
 * The deployment's limits the over-length prompts are sized against: the smallest KV pool of any
 * node (a prompt past it cannot be held where it lands) and the largest context length (a prompt
 * past it must be refused everywhere), each with where it came from.
 *
 * @param smallestPool tokens, or null when no node showed a pool and none was given
 * @param context tokens, or null likewise
 * @param pageSize the largest page size shown (over-length prompts go at least a page past), or null
 */
public record Limits(Long smallestPool, String poolFrom, Long context, String contextFrom, Integer pageSize) {

  /**
   * From the checked nodes, with the operator's values (null when not given) taking precedence:
   * they are how a deployment that exposes nothing is still tested.
   */
  public static Limits of(List<NodeReport> nodes, Long givenPool, Long givenContext) {
    Long pool = givenPool;
    String poolFrom = givenPool == null ? null : "--pool-tokens";
    Long context = givenContext;
    String contextFrom = givenContext == null ? null : "--context-length";
    Integer page = null;
    for (NodeReport n : nodes) {
      Long p = n.epoch().poolTokens();
      if (givenPool == null && p != null && (pool == null || p < pool)) {
        pool = p;
        poolFrom = n.endpoint().name();
      }
      Long c = n.epoch().contextLength();
      if (givenContext == null && c != null && (context == null || c > context)) {
        context = c;
        contextFrom = n.endpoint().name();
      }
      Integer ps = n.epoch().pageSize();
      if (ps != null && (page == null || ps > page)) {
        page = ps;
      }
    }
    return new Limits(pool, poolFrom, context, contextFrom, page);
  }

  /** True when a prompt can be admitted (within the context) yet not held (past the pool). */
  public boolean poolBelowContext() {
    return smallestPool != null && context != null && smallestPool < context;
  }
}

package io.kvscope.samples.sim;

import java.util.HashMap;
import java.util.Map;

/**
 * A prefill node's radix cache, reduced to what matters here: which prompt prefixes (a system
 * prompt, a conversation so far, a popular question) were computed recently enough to still be
 * cached. Only looked up by key, never iterated, so map order cannot leak into the output.
 */
final class PrefixCache {

  private final Map<Long, Long> lastUse = new HashMap<>();

  /** True when {@code key} was used within {@code ttlMs} before {@code now}. */
  boolean hit(long key, long now, long ttlMs) {
    Long t = lastUse.get(key);
    return t != null && now - t <= ttlMs;
  }

  void touch(long key, long now) {
    lastUse.put(key, now);
  }

  /** A restart starts with an empty cache. */
  void clear() {
    lastUse.clear();
  }
}

package io.kvscope.ingest.engine;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A fixed-size memory of recently seen keys. Every tensor-parallel rank of a node logs the same
 * fault or rejection line; keeping the fact once per node needs only the recent past, so the
 * oldest keys are forgotten and memory stays bounded.
 */
public final class RecentKeys {

  private final Map<Object, Boolean> seen;

  public RecentKeys(int capacity) {
    this.seen = new LinkedHashMap<>(64, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Object, Boolean> eldest) {
        return size() > capacity;
      }
    };
  }

  /** True the first time {@code key} is offered (within the window), false for repeats. */
  public boolean firstTime(Object key) {
    return seen.put(key, Boolean.TRUE) == null;
  }
}

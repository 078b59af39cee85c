package io.kvscope.samples.sim;

import io.kvscope.samples.kv.PagePool;
import java.util.HashMap;
import java.util.Map;

/**
 * Which requests still own content in some decode pool, and how many pages each. A request is
 * forgotten when its last page is overwritten, so memory stays bounded by the pools' size.
 * Lookups only: iteration order of the map never influences output.
 */
final class OwnerRegistry implements PagePool.OwnerListener {

  private static final class Entry {
    final RequestPlan plan;
    int pages;

    Entry(RequestPlan plan) {
      this.plan = plan;
    }
  }

  private final Map<Integer, Entry> entries = new HashMap<>();

  /** Announces that {@code plan} is about to write pages. */
  void expect(RequestPlan plan) {
    entries.putIfAbsent(plan.ordinal, new Entry(plan));
  }

  /** Drops {@code plan} if it ended up owning no page. */
  void settle(RequestPlan plan) {
    Entry e = entries.get(plan.ordinal);
    if (e != null && e.pages == 0) {
      entries.remove(plan.ordinal);
    }
  }

  RequestPlan plan(int ordinal) {
    Entry e = entries.get(ordinal);
    return e == null ? null : e.plan;
  }

  @Override
  public void gained(int owner) {
    Entry e = entries.get(owner);
    if (e == null) {
      throw new IllegalStateException("page written by an unannounced request " + owner);
    }
    e.pages++;
  }

  @Override
  public void lost(int owner) {
    Entry e = entries.get(owner);
    if (e != null && --e.pages <= 0) {
      entries.remove(owner);
    }
  }
}

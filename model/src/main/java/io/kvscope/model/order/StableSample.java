package io.kvscope.model.order;

import io.kvscope.model.fingerprint.HashMixing;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A sample of at most {@code size} items that does not depend on the order they arrive in: it
 * keeps the items whose keys (request ids) hash lowest, ties broken by the key itself. Every item
 * has the same chance to be kept whenever it was logged, so a sample of a large incident covers
 * all of it, not its first weeks; and the same items give the same sample on every machine.
 * Memory holds {@code size} items.
 *
 * @param <T> the sampled value
 */
public final class StableSample<T> {

  private record Keyed<T>(long hash, String key, T value) {}

  /** Highest hash on top, so the item to drop is the first one looked at. */
  private static final Comparator<Keyed<?>> HIGHEST_FIRST =
      Comparator.comparingLong((Keyed<?> k) -> k.hash()).thenComparing(Keyed::key).reversed();

  private final int size;
  private final PriorityQueue<Keyed<T>> kept;
  private long offered;

  public StableSample(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("a sample holds at least one item, was " + size);
    }
    this.size = size;
    this.kept = new PriorityQueue<>(HIGHEST_FIRST);
  }

  /** Offers {@code value}, known by {@code key} (a request id; one key is offered once). */
  public void offer(String key, T value) {
    offered++;
    Keyed<T> item = new Keyed<>(HashMixing.ofText(key), key, value);
    if (kept.size() < size) {
      kept.add(item);
    } else if (HIGHEST_FIRST.compare(item, kept.peek()) > 0) {
      kept.poll();
      kept.add(item);
    }
  }

  /** The kept values, in the order of their keys' hashes (itself independent of arrival). */
  public List<T> values() {
    List<Keyed<T>> sorted = new ArrayList<>(kept);
    sorted.sort(HIGHEST_FIRST.reversed());
    List<T> values = new ArrayList<>(sorted.size());
    sorted.forEach(k -> values.add(k.value()));
    return values;
  }

  /** How many items were offered, kept or not. */
  public long offered() {
    return offered;
  }
}

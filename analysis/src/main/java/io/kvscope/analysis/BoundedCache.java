package io.kvscope.analysis;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.function.ToLongBiFunction;

/**
 * Values kept while they are used, within a budget of weight (chars, mostly): once the budget is
 * passed the least recently used go first, and a value heavier than the whole budget is not kept.
 * What the analysis reads again and again (texts, a passage's holders) is kept this way so memory
 * stays bounded however large the incident. Not for concurrent use.
 */
public final class BoundedCache<K, V> {

  private final long maxWeight;
  private final ToLongBiFunction<K, V> weigher;
  /** In access order, so iteration starts at the least recently used entry. */
  private final LinkedHashMap<K, V> entries = new LinkedHashMap<>(256, 0.75f, true);
  private long weight;

  /** @param weigher what keeping an entry costs, in the unit of {@code maxWeight} */
  public BoundedCache(long maxWeight, ToLongBiFunction<K, V> weigher) {
    this.maxWeight = maxWeight;
    this.weigher = weigher;
  }

  /** The value kept for {@code key}, or null when none is. */
  public V get(K key) {
    return entries.get(key);
  }

  /** Keeps {@code value} for {@code key}, then drops the least recently used entries until the budget holds. */
  public void put(K key, V value) {
    long cost = weigher.applyAsLong(key, value);
    if (cost > maxWeight) {
      return;
    }
    V replaced = entries.put(key, value);
    if (replaced != null) {
      weight -= weigher.applyAsLong(key, replaced);
    }
    weight += cost;
    Iterator<java.util.Map.Entry<K, V>> eldest = entries.entrySet().iterator();
    while (weight > maxWeight) {
      java.util.Map.Entry<K, V> entry = eldest.next();
      weight -= weigher.applyAsLong(entry.getKey(), entry.getValue());
      eldest.remove();
    }
  }
}

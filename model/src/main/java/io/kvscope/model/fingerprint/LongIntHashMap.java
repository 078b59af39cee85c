package io.kvscope.model.fingerprint;

/**
 * A minimal open-addressing map from {@code long} to {@code int} (linear probing, power-of-two
 * table), so that per-token maps over million-token texts need no boxing.
 */
final class LongIntHashMap {

  private long[] keys;
  private int[] values;
  private boolean[] used;
  private int size;
  private int mask;

  LongIntHashMap(int expected) {
    int capacity = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
    allocate(capacity);
  }

  int size() {
    return size;
  }

  int get(long key, int missing) {
    int slot = slot(key);
    while (used[slot]) {
      if (keys[slot] == key) {
        return values[slot];
      }
      slot = (slot + 1) & mask;
    }
    return missing;
  }

  boolean containsKey(long key) {
    int slot = slot(key);
    while (used[slot]) {
      if (keys[slot] == key) {
        return true;
      }
      slot = (slot + 1) & mask;
    }
    return false;
  }

  void put(long key, int value) {
    int slot = slot(key);
    while (used[slot]) {
      if (keys[slot] == key) {
        values[slot] = value;
        return;
      }
      slot = (slot + 1) & mask;
    }
    used[slot] = true;
    keys[slot] = key;
    values[slot] = value;
    if (++size > (mask + 1) * 3 / 4) {
      rehash();
    }
  }

  private int slot(long key) {
    return (int) HashMixing.fmix64(key) & mask;
  }

  private void allocate(int capacity) {
    keys = new long[capacity];
    values = new int[capacity];
    used = new boolean[capacity];
    mask = capacity - 1;
  }

  private void rehash() {
    long[] oldKeys = keys;
    int[] oldValues = values;
    boolean[] oldUsed = used;
    allocate(oldKeys.length * 2);
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldUsed[i]) {
        put(oldKeys[i], oldValues[i]);
      }
    }
  }

  @Override
  public String toString() {
    return "LongIntHashMap[" + size + "/" + keys.length + "]";
  }
}

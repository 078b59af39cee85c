package io.kvscope.model.fingerprint;

import java.util.Arrays;

/**
 * The fingerprints winnowing selected from one text: k-gram hashes with the token position of the
 * k-gram's first token, in increasing position order. Immutable.
 */
public final class Fingerprints {

  private static final Fingerprints EMPTY = new Fingerprints(new long[0], new int[0]);

  private final long[] hashes;
  private final int[] positions;

  Fingerprints(long[] hashes, int[] positions) {
    this.hashes = hashes;
    this.positions = positions;
  }

  static Fingerprints empty() {
    return EMPTY;
  }

  public int size() {
    return hashes.length;
  }

  /** Hash of the {@code i}-th selected k-gram. */
  public long hash(int i) {
    return hashes[i];
  }

  /** Token index where the {@code i}-th selected k-gram starts. */
  public int position(int i) {
    return positions[i];
  }

  /** All selected positions, in increasing order (a copy). */
  public int[] positions() {
    return positions.clone();
  }

  /**
   * The distinct hash values, sorted as unsigned numbers (the order of their big-endian index
   * terms). A repeated passage yields one value once.
   */
  public long[] distinctHashes() {
    long[] sorted = hashes.clone();
    // Flipping the sign bit makes signed order equal unsigned order.
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] ^= Long.MIN_VALUE;
    }
    Arrays.sort(sorted);
    int n = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (n == 0 || sorted[i] != sorted[n - 1]) {
        sorted[n++] = sorted[i];
      }
    }
    long[] out = Arrays.copyOf(sorted, n);
    for (int i = 0; i < n; i++) {
      out[i] ^= Long.MIN_VALUE;
    }
    return out;
  }

  @Override
  public String toString() {
    return "Fingerprints[" + size() + "]";
  }
}

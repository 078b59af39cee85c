package io.kvscope.model.fingerprint;

import java.util.Arrays;

/**
 * Robust winnowing (Schleimer, Wilkerson and Aiken, SIGMOD 2003) over a sequence of k-gram
 * hashes.
 *
 * <p>Every window of {@code w} consecutive hashes contributes its minimum. When the minimum of the
 * previous window is still inside the window and ties with the new smallest value, it is kept
 * (so long runs of equal hashes, as in repetitive text, do not select every position); otherwise
 * the rightmost minimum is taken. Each selected position is recorded once.
 *
 * <p>Guarantee: a window's selection depends only on the window's hash values, so two texts that
 * share {@code w} consecutive k-gram hashes (a shared run of {@code w + k - 1} tokens) both select
 * that window's minimum value. Sequences shorter than one window select nothing: they cannot
 * contain a run of the guaranteed length.
 */
public final class Winnower {

  private Winnower() {}

  /** Winnows {@code kgramHashes} with windows of {@code window} hashes. */
  public static Fingerprints winnow(long[] kgramHashes, int window) {
    return winnow(kgramHashes, kgramHashes.length, window);
  }

  /** {@link #winnow(long[], int)} of the first {@code m} hashes of {@code kgramHashes}. */
  static Fingerprints winnow(long[] kgramHashes, int m, int window) {
    if (window < 1) {
      throw new IllegalArgumentException("window must be at least 1, was " + window);
    }
    if (m < window) {
      return Fingerprints.empty();
    }
    // Expected density is 2 / (w + 1); start there and grow if the input is adversarial.
    int capacity = Math.max(8, (int) Math.min(m, 2L * m / (window + 1) + 16));
    long[] hashes = new long[capacity];
    int[] positions = new int[capacity];
    int count = 0;

    int min = -1;
    for (int right = window - 1; right < m; right++) {
      int left = right - window + 1;
      boolean selected;
      if (min < left) {
        // The previous minimum left the window: rescan, keeping the rightmost minimum.
        min = left;
        for (int i = left + 1; i <= right; i++) {
          if (kgramHashes[i] <= kgramHashes[min]) {
            min = i;
          }
        }
        selected = true;
      } else if (kgramHashes[right] < kgramHashes[min]) {
        min = right;
        selected = true;
      } else {
        selected = false; // ties keep the previous selection (robust winnowing)
      }
      if (selected) {
        if (count == hashes.length) {
          int grown = count + (count >> 1) + 8;
          hashes = Arrays.copyOf(hashes, grown);
          positions = Arrays.copyOf(positions, grown);
        }
        hashes[count] = kgramHashes[min];
        positions[count] = min;
        count++;
      }
    }
    return new Fingerprints(Arrays.copyOf(hashes, count), Arrays.copyOf(positions, count));
  }
}

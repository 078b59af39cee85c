package io.kvscope.model.fingerprint;

/**
 * Hashes every run of {@code k} consecutive tokens (a k-gram) to 64 bits.
 *
 * <p>The k-gram value is a rolling polynomial over the token hashes,
 * {@code t[i]·B^(k-1) + ... + t[i+k-1]} mod 2^64 with an odd base B, updated in O(1) per step,
 * then passed through a 64-bit finaliser so that the values winnowing compares are uniformly
 * spread. Order matters (swapping two tokens changes the value) and the result is the same on
 * every JVM.
 */
public final class KGramHasher {

  private KGramHasher() {}

  /**
   * The k-gram hashes of {@code tokenHashes}: element {@code i} covers tokens {@code [i, i+k)}.
   * Fewer than {@code k} tokens give an empty array.
   */
  public static long[] hash(long[] tokenHashes, int k) {
    checkK(k);
    int n = tokenHashes.length;
    if (n < k) {
      return new long[0];
    }
    long[] out = new long[n - k + 1];
    roll(tokenHashes, n, k, out);
    return out;
  }

  /**
   * {@link #hash(long[], int)} of the first {@code count} token hashes, written over them: element
   * {@code i} becomes the hash of k-gram {@code i}. Returns how many there are (0 for fewer than
   * {@code k} tokens).
   */
  static int hashInPlace(long[] tokenHashes, int count, int k) {
    checkK(k);
    if (count < k) {
      return 0;
    }
    roll(tokenHashes, count, k, tokenHashes);
    return count - k + 1;
  }

  private static void checkK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, was " + k);
    }
  }

  /** The k-gram hashes of {@code tokens[0, n)} into {@code out}, which may be {@code tokens} itself. */
  private static void roll(long[] tokens, int n, int k, long[] out) {
    long topPower = 1; // B^(k-1): weight of the token that leaves the window
    for (int i = 1; i < k; i++) {
      topPower *= HashMixing.KGRAM_BASE;
    }
    long rolling = 0;
    for (int i = 0; i < k; i++) {
      rolling = rolling * HashMixing.KGRAM_BASE + tokens[i];
    }
    long leaving = tokens[0]; // read before out[0] may overwrite it
    out[0] = HashMixing.fmix64(rolling);
    for (int i = 1, m = n - k + 1; i < m; i++) {
      rolling = (rolling - leaving * topPower) * HashMixing.KGRAM_BASE + tokens[i + k - 1];
      leaving = tokens[i];
      out[i] = HashMixing.fmix64(rolling);
    }
  }
}

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
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, was " + k);
    }
    int n = tokenHashes.length;
    if (n < k) {
      return new long[0];
    }
    long topPower = 1; // B^(k-1): weight of the token that leaves the window
    for (int i = 1; i < k; i++) {
      topPower *= HashMixing.KGRAM_BASE;
    }
    long rolling = 0;
    for (int i = 0; i < k; i++) {
      rolling = rolling * HashMixing.KGRAM_BASE + tokenHashes[i];
    }
    long[] out = new long[n - k + 1];
    out[0] = HashMixing.fmix64(rolling);
    for (int i = 1; i < out.length; i++) {
      rolling = (rolling - tokenHashes[i - 1] * topPower) * HashMixing.KGRAM_BASE + tokenHashes[i + k - 1];
      out[i] = HashMixing.fmix64(rolling);
    }
    return out;
  }
}

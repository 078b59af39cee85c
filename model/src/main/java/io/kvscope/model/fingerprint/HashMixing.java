package io.kvscope.model.fingerprint;

/**
 * The fixed 64-bit mixing functions of the fingerprint scheme. They are spelled out here (rather
 * than using {@code String.hashCode} or a seeded library hash) so that a fingerprint computed at
 * ingest time equals the one computed at analysis time on any JVM.
 */
public final class HashMixing {

  /** FNV-1a 64-bit offset basis. */
  static final long FNV_OFFSET = 0xcbf29ce484222325L;
  /** FNV-1a 64-bit prime. */
  static final long FNV_PRIME = 0x100000001b3L;
  /** Odd base of the rolling polynomial over token hashes (the 64-bit golden ratio). */
  static final long KGRAM_BASE = 0x9E3779B97F4A7C15L;

  private HashMixing() {}

  /** One FNV-1a step over a whole code point; for ASCII this equals byte-wise FNV-1a. */
  public static long fnvStep(long hash, int codePoint) {
    return (hash ^ codePoint) * FNV_PRIME;
  }

  /** FNV-1a over the code points of {@code text}, finalised: a fixed hash of a whole string (an id, a key). */
  public static long ofText(String text) {
    long hash = FNV_OFFSET;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      hash = fnvStep(hash, cp);
      i += Character.charCount(cp);
    }
    return fmix64(hash);
  }

  /** MurmurHash3's 64-bit finaliser: every input bit affects every output bit. */
  public static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}

package io.kvscope.model.fingerprint;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two numbers that define a fingerprint scheme: the k-gram length {@code k} (in word tokens)
 * and the guarantee threshold {@code threshold} (T). Winnowing uses windows of
 * {@code T - k + 1} consecutive k-grams, which guarantees that every run of at least T tokens shared
 * by two texts shares at least one selected fingerprint. T is also the minimum span length that
 * verification reports.
 *
 * <p>The same config must be used when indexing and when joining or verifying: fingerprints of
 * different schemes never match. {@link #schemeId()} names the scheme so the index can record it.
 *
 * @param k tokens per k-gram, at least 1
 * @param threshold T, the guaranteed-detection run length in tokens, at least {@code k}
 */
public record FingerprintConfig(int k, int threshold) {

  /** Default k-gram length; see the package documentation for the reasoning. */
  public static final int DEFAULT_K = 8;
  /** Default guarantee threshold T; see the package documentation for the reasoning. */
  public static final int DEFAULT_THRESHOLD = 16;

  public FingerprintConfig {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, was " + k);
    }
    if (threshold < k) {
      throw new IllegalArgumentException(
          "threshold T must be at least k (" + k + "), was " + threshold);
    }
    if (threshold > 100_000) {
      throw new IllegalArgumentException("threshold T must be at most 100000, was " + threshold);
    }
  }

  /** k = 8, T = 16 (window 9): the scheme the index is built with. */
  public static FingerprintConfig defaults() {
    return new FingerprintConfig(DEFAULT_K, DEFAULT_THRESHOLD);
  }

  /** The same k with another threshold, e.g. from a command-line option. */
  public FingerprintConfig withThreshold(int newThreshold) {
    return new FingerprintConfig(k, newThreshold);
  }

  /** Winnowing window in k-grams: {@code T - k + 1}. */
  public int window() {
    return threshold - k + 1;
  }

  /**
   * A stable name for tokenizer version, hash scheme, k and T; store it with the index and refuse
   * to join an index built under another scheme.
   */
  public String schemeId() {
    return SCHEME + " k=" + k + " t=" + threshold;
  }

  private static final String SCHEME = "kvscope-winnow/1";
  private static final Pattern SCHEME_ID = Pattern.compile(Pattern.quote(SCHEME) + " k=(\\d{1,4}) t=(\\d{1,4})");

  /** The configuration a {@link #schemeId()} names, or empty when it names another scheme. */
  public static Optional<FingerprintConfig> ofSchemeId(String schemeId) {
    Matcher m = SCHEME_ID.matcher(schemeId);
    if (!m.matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new FingerprintConfig(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))));
    } catch (IllegalArgumentException impossible) {
      return Optional.empty();
    }
  }
}

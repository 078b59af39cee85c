package io.kvscope.analysis;

import io.kvscope.model.fingerprint.FingerprintConfig;
import java.time.Duration;
import java.time.Instant;

/**
 * Every setting of an analysis run, in one typed value built by the CLI or GUI.
 *
 * @param since only requests starting at or after this (null: no bound)
 * @param until only requests starting before this (null: no bound)
 * @param fixedVersion the first engine release with the admission fix; older ones are unpatched
 * @param minSpanTokens T: the shortest verbatim run that counts as a leak
 * @param sourceHorizon how long before a recipient a source may lie (stale pages do not last forever)
 * @param underrunRatio an engine prefill below this share of the uncached prompt is an underrun
 * @param timingFactor a TTFT below this share of the fitted expectation is anomalous
 * @param minUncachedForTiming prompts with fewer uncached tokens are too short to judge by timing
 * @param threads threads the cross-tenant overlap judges responses on; {@link #AUTOMATIC_THREADS}: as
 *     many as the machine has cores when the incident is large enough to pay for them
 */
public record AnalysisOptions(
    Instant since,
    Instant until,
    String fixedVersion,
    int minSpanTokens,
    Duration sourceHorizon,
    double underrunRatio,
    double timingFactor,
    long minUncachedForTiming,
    int threads) {

  /** {@link #threads()} chosen by the analysis from the machine's cores and the incident's size. */
  public static final int AUTOMATIC_THREADS = 0;

  /**
   * The first SGLang release with the admission fix, as far as kvscope knows: the analysis's and
   * the probe's one home of it (--fixed-version overrides it). The generator's fleet upgrades to the
   * same release on its own ({@code Fleet.FIXED_VERSION}): a fact of its world, kept apart so that a
   * test of the analysis against that world checks this value instead of sharing it.
   */
  public static final String DEFAULT_FIXED_VERSION = "0.5.22";

  /** T, in words: the fingerprint scheme's own (docs/overlap-method.md says why 16). */
  public static final int DEFAULT_MIN_SPAN_TOKENS = FingerprintConfig.DEFAULT_THRESHOLD;

  /**
   * Freed KV pages keep their content until reallocated, which on a quiet node (nights,
   * weekends) can be days later; verification is exact, so a generous horizon costs candidates,
   * not precision.
   */
  public static final int DEFAULT_HORIZON_DAYS = 7;
  public static final Duration DEFAULT_HORIZON = Duration.ofDays(DEFAULT_HORIZON_DAYS);

  public AnalysisOptions {
    if (minSpanTokens < 4) {
      throw new IllegalArgumentException("the minimum span must be at least 4 tokens, was " + minSpanTokens);
    }
    if (underrunRatio <= 0 || underrunRatio >= 1 || timingFactor <= 0 || timingFactor >= 1) {
      throw new IllegalArgumentException("ratios must lie strictly between 0 and 1");
    }
    if (threads < 0) {
      throw new IllegalArgumentException("threads must be at least 1 (or automatic), was " + threads);
    }
    fixedVersion = fixedVersion == null ? DEFAULT_FIXED_VERSION : fixedVersion;
    sourceHorizon = sourceHorizon == null ? DEFAULT_HORIZON : sourceHorizon;
  }

  public static AnalysisOptions defaults() {
    return new AnalysisOptions(null, null, DEFAULT_FIXED_VERSION, DEFAULT_MIN_SPAN_TOKENS, DEFAULT_HORIZON, 0.5, 0.25,
        8_192, AUTOMATIC_THREADS);
  }

  public AnalysisOptions withRange(Instant since, Instant until) {
    return new AnalysisOptions(since, until, fixedVersion, minSpanTokens, sourceHorizon, underrunRatio,
        timingFactor, minUncachedForTiming, threads);
  }

  public AnalysisOptions withFixedVersion(String version) {
    return new AnalysisOptions(since, until, version, minSpanTokens, sourceHorizon, underrunRatio,
        timingFactor, minUncachedForTiming, threads);
  }

  public AnalysisOptions withThreads(int count) {
    return new AnalysisOptions(since, until, fixedVersion, minSpanTokens, sourceHorizon, underrunRatio,
        timingFactor, minUncachedForTiming, count);
  }

  /** True when a request starting at {@code startTime} lies in the analysed range. */
  public boolean inRange(Long startTime) {
    if (startTime == null) {
      return since == null && until == null;
    }
    return (since == null || startTime >= since.toEpochMilli()) && (until == null || startTime < until.toEpochMilli());
  }
}

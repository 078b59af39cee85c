package io.kvscope.model.fingerprint;

import java.util.Arrays;

/**
 * Histogram of shared fingerprints by tenant frequency (how many distinct tenants carry each),
 * filled by whichever engine walks the shared fingerprints (the Lucene join, a Spark aggregate). Its
 * tail is the boilerplate; the caller picks the tenant-frequency cut-off from it and reports it. Frequencies
 * at or above {@code maxTracked} share the last bucket.
 */
public final class FrequencyHistogram implements TermFrequencyListener {

  private final long[] byTenantFrequency;
  private long total;
  private long maxDocFrequency;

  /** Tracks tenant frequencies 0..maxTracked-1 exactly and the rest in one overflow bucket. */
  public FrequencyHistogram(int maxTracked) {
    if (maxTracked < 2) {
      throw new IllegalArgumentException("maxTracked must be at least 2, was " + maxTracked);
    }
    this.byTenantFrequency = new long[maxTracked + 1];
  }

  /**
   * The histogram another engine filled, from its {@link #counts()} and {@link #maxDocFrequency()}:
   * the Spark job's, handed to the analysis on the driver, which then need not walk the terms again.
   */
  public static FrequencyHistogram of(long[] counts, long maxDocFrequency) {
    FrequencyHistogram histogram = new FrequencyHistogram(counts.length - 1);
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] < 0) {
        throw new IllegalArgumentException("a negative count, " + counts[i] + ", at tenant frequency " + i);
      }
      histogram.byTenantFrequency[i] = counts[i];
      histogram.total += counts[i];
    }
    if (maxDocFrequency < 0) {
      throw new IllegalArgumentException("a negative document frequency, " + maxDocFrequency);
    }
    histogram.maxDocFrequency = maxDocFrequency;
    return histogram;
  }

  @Override
  public void onSharedTerm(int docFrequency, int tenantFrequency) {
    byTenantFrequency[Math.min(tenantFrequency, byTenantFrequency.length - 1)]++;
    total++;
    maxDocFrequency = Math.max(maxDocFrequency, docFrequency);
  }

  /** An empty histogram tracking the same frequencies, to fill apart and {@linkplain #add add} in. */
  public FrequencyHistogram emptyCopy() {
    return new FrequencyHistogram(byTenantFrequency.length - 1);
  }

  /** Adds what {@code other} (tracking the same frequencies) counted. */
  public void add(FrequencyHistogram other) {
    if (other.byTenantFrequency.length != byTenantFrequency.length) {
      throw new IllegalArgumentException("histograms track different frequencies");
    }
    for (int i = 0; i < byTenantFrequency.length; i++) {
      byTenantFrequency[i] += other.byTenantFrequency[i];
    }
    total += other.total;
    maxDocFrequency = Math.max(maxDocFrequency, other.maxDocFrequency);
  }

  /** Shared fingerprints seen. */
  public long totalTerms() {
    return total;
  }

  /** Highest document frequency seen. */
  public long maxDocFrequency() {
    return maxDocFrequency;
  }

  /** Highest exactly tracked frequency plus one: the overflow bucket's index. */
  public int overflowBucket() {
    return byTenantFrequency.length - 1;
  }

  /** Shared fingerprints carried by exactly {@code tenants} tenants (or by the overflow bucket). */
  public long termsWithTenantFrequency(int tenants) {
    return byTenantFrequency[Math.min(Math.max(tenants, 0), byTenantFrequency.length - 1)];
  }

  /** Shared fingerprints a cut-off of {@code maxTenantFrequency} would skip. */
  public long termsAbove(int maxTenantFrequency) {
    long n = 0;
    for (int f = Math.max(0, maxTenantFrequency + 1); f < byTenantFrequency.length; f++) {
      n += byTenantFrequency[f];
    }
    return n;
  }

  /**
   * The smallest tenant frequency f such that at least {@code quantile} of the shared
   * fingerprints have a tenant frequency of at most f; 0 when nothing was seen.
   */
  public int tenantFrequencyAtQuantile(double quantile) {
    if (!(quantile >= 0 && quantile <= 1)) {
      throw new IllegalArgumentException("quantile must be in [0, 1], was " + quantile);
    }
    long needed = (long) Math.ceil(quantile * total);
    long cumulative = 0;
    for (int f = 0; f < byTenantFrequency.length; f++) {
      cumulative += byTenantFrequency[f];
      if (cumulative >= needed && cumulative > 0) {
        return f;
      }
    }
    return 0;
  }

  /** Counts indexed by tenant frequency, the last element being the overflow bucket (a copy). */
  public long[] counts() {
    return byTenantFrequency.clone();
  }

  @Override
  public String toString() {
    return "FrequencyHistogram[total=" + total + ", byTenantFrequency="
        + Arrays.toString(byTenantFrequency) + "]";
  }
}

package io.kvscope.model.fingerprint;

/**
 * The boilerplate cut-off, learned from how many tenants share each fingerprint: a leaked span is
 * shared by its source and a few recipients, public text by many. The cut-off is the tenant
 * frequency at or below which {@value #QUANTILE} of the shared fingerprints fall, but never under
 * {@value #MIN_TENANTS}. Every engine (the Lucene join, the Spark job) learns it here, from a
 * histogram it filled with {@link #histogram()}.
 */
public final class BoilerplateCutoff {

  /** Share of the shared fingerprints the cut-off keeps. */
  public static final double QUANTILE = 0.99;

  /** The cut-off never goes below this many tenants: a leak involves two, and may reach a few recipients. */
  public static final int MIN_TENANTS = 4;

  /** Tenant frequencies tracked exactly; higher ones share the histogram's overflow bucket. */
  public static final int TRACKED_TENANT_FREQUENCIES = 64;

  private BoilerplateCutoff() {}

  /** An empty histogram of the shape the cut-off is learned from. */
  public static FrequencyHistogram histogram() {
    return new FrequencyHistogram(TRACKED_TENANT_FREQUENCIES);
  }

  /** The cut-off learned from the tenant frequencies of the shared fingerprints. */
  public static int learn(FrequencyHistogram histogram) {
    return Math.max(MIN_TENANTS, histogram.tenantFrequencyAtQuantile(QUANTILE));
  }
}

package io.kvscope.samples.fleet;

/**
 * What a node ran with during one epoch, as its {@code server_args} and memory lines report.
 *
 * @param poolTokens KV pool size in tokens ({@code max_total_num_tokens})
 * @param bugFixed whether the engine honours a rejected request's abort in disaggregated mode
 */
public record EngineConfig(
    String version,
    long contextLength,
    long poolTokens,
    int pageSize,
    int tpSize,
    double memFraction,
    boolean kvCanary,
    boolean kvChecksum,
    int chunkedPrefillSize,
    int maxPrefillTokens,
    int maxRunningRequests,
    boolean bugFixed) {

  /**
   * The longest input the scheduler admits: SGLang's {@code max_req_input_len}, i.e.
   * {@code min(context_len - 1, max_total_num_tokens - 1) - 5}.
   */
  public long maxInputLen() {
    return Math.min(contextLength - 1, poolTokens - 1) - 5;
  }

  public int pages() {
    return (int) (poolTokens / pageSize);
  }

  public EngineConfig withContextLength(long v) {
    return new EngineConfig(version, v, poolTokens, pageSize, tpSize, memFraction, kvCanary, kvChecksum,
        chunkedPrefillSize, maxPrefillTokens, maxRunningRequests, bugFixed);
  }

  public EngineConfig withPool(long v, double fraction) {
    return new EngineConfig(version, contextLength, v, pageSize, tpSize, fraction, kvCanary, kvChecksum,
        chunkedPrefillSize, maxPrefillTokens, maxRunningRequests, bugFixed);
  }

  public EngineConfig withVersion(String v, boolean fixed, boolean checksum) {
    return new EngineConfig(v, contextLength, poolTokens, pageSize, tpSize, memFraction, kvCanary, checksum,
        chunkedPrefillSize, maxPrefillTokens, maxRunningRequests, fixed);
  }

  /** Compares dotted numeric versions ({@code 0.5.9 < 0.5.22}). */
  public static int compareVersions(String a, String b) {
    String[] x = a.split("\\.");
    String[] y = b.split("\\.");
    for (int i = 0; i < Math.max(x.length, y.length); i++) {
      int xi = i < x.length ? Integer.parseInt(x[i]) : 0;
      int yi = i < y.length ? Integer.parseInt(y[i]) : 0;
      if (xi != yi) {
        return Integer.compare(xi, yi);
      }
    }
    return 0;
  }
}

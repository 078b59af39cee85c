package io.kvscope.analysis;

import io.kvscope.analysis.finding.Tenants;

/**
 * A request's numbers and names, read from doc values without touching its (large, compressed)
 * text. This is what most analyzers need; text is fetched only for the few that must read it.
 *
 * @param doc the Lucene document number in the reader it came from
 * @param transferFailures KV transfer or bootstrap failures the engines logged for it
 * @param canaryViolations KV canary violations the engines logged for it
 * @param checksumMismatches KV checksum mismatches the engines logged for it
 */
public record RequestRow(
    int doc,
    String requestId,
    String engineRid,
    String tenant,
    String model,
    String deployment,
    String prefillNode,
    String decodeNode,
    Long startTime,
    Long firstTokenTime,
    Long endTime,
    Long statusCode,
    Long promptTokens,
    Long promptChars,
    Long cachedTokens,
    Long completionTokens,
    Long engineInputLen,
    long engineEvents,
    boolean rejected,
    Long requestedLen,
    Long rejectionLimit,
    Long prefillPool,
    Long prefillContext,
    Long decodePool,
    Long decodeContext,
    String engineVersion,
    Double transferMb,
    long transferFailures,
    long canaryViolations,
    long checksumMismatches) {

  public boolean succeeded() {
    return statusCode != null && statusCode >= 200 && statusCode < 300;
  }

  public Long ttftMillis() {
    return startTime != null && firstTokenTime != null ? firstTokenTime - startTime : null;
  }

  /**
   * The longest prompt this request's serving nodes could really hold at the time: the smallest
   * known of their KV pools and context lengths. Null when no engine epoch is known.
   */
  public Long servingLimit() {
    Long limit = null;
    for (Long value : new Long[] {prefillPool, prefillContext, decodePool, decodeContext}) {
      if (value != null && (limit == null || value < limit)) {
        limit = value;
      }
    }
    return limit;
  }

  /** The node that names this request in findings: prefill, else decode. */
  public String servingNode() {
    return prefillNode != null ? prefillNode : decodeNode;
  }

  /** Who the request belongs to; requests without a tenant are grouped as {@link Tenants#UNKNOWN}. */
  public String tenantOrUnknown() {
    return Tenants.nameOf(tenant);
  }
}

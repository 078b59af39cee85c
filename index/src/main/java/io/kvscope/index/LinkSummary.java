package io.kvscope.index;

import java.util.List;

/**
 * How well gateway records and engine logs joined by rid.
 *
 * @param requests request documents in the index
 * @param joined requests with at least one engine event
 * @param gatewayOnly requests with no engine event (no rid, or no engine log for it)
 * @param engineOnlyRids engine rids with no gateway record
 */
public record LinkSummary(long requests, long joined, long gatewayOnly, List<String> gatewayOnlySample,
    long engineOnlyRids, List<String> engineOnlySample, long rewritten) {

  public LinkSummary {
    gatewayOnlySample = List.copyOf(gatewayOnlySample);
    engineOnlySample = List.copyOf(engineOnlySample);
  }

  /** Share of requests joined to engine logs, 0..1 (1 when there are no requests). */
  public double joinRate() {
    return requests == 0 ? 1.0 : (double) joined / requests;
  }
}

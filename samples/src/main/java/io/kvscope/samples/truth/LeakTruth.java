package io.kvscope.samples.truth;

import java.time.Instant;
import java.util.List;

/**
 * A response that reproduced earlier requests' stale KV content.
 *
 * @param time the recipient's gateway start time (the exposure time)
 * @param sources fragments from other tenants' requests
 * @param sameTenantSources fragments from the recipient tenant's own earlier requests
 */
public record LeakTruth(String requestId, String engineRid, String tenant, String deployment, String prefillNode,
    String decodeNode, Instant time, Instant endTime, long promptTokens, long reportedPromptTokens,
    int reservedPages, int stalePages, int staleOwners, List<SourceTruth> sources,
    List<SourceTruth> sameTenantSources) {

  public LeakTruth {
    sources = List.copyOf(sources);
    sameTenantSources = List.copyOf(sameTenantSources);
  }

  public boolean crossTenant() {
    return !sources.isEmpty();
  }

  /** Whether an analysis is expected to find this leak: one of its other tenants' fragments is expected. */
  public boolean expected() {
    return sources.stream().anyMatch(SourceTruth::expected);
  }

  /**
   * For a same-tenant reuse: whether every fragment it carried was also held word for word by
   * another tenant's request within reach, so that no log tells it from a cross-tenant leak.
   */
  public boolean anotherTenantHeldEveryFragment() {
    return !sameTenantSources.isEmpty() && sameTenantSources.stream()
        .allMatch(s -> s.holders().stream().anyMatch(h -> !h.tenant().equals(tenant)));
  }
}

package io.kvscope.samples.sim;

import java.util.List;

/**
 * What one over-length request on the buggy path attended over and reproduced.
 *
 * @param stalePages reserved pages that still held an earlier request's content
 * @param staleOwners distinct earlier requests whose content those pages held
 */
public record StubLeak(RequestPlan recipient, int reservedPages, int stalePages, int staleOwners,
    List<Fragment> fragments) {

  public boolean crossTenant() {
    for (Fragment f : fragments) {
      if (f.source().tenant != recipient.tenant) {
        return true;
      }
    }
    return false;
  }
}

package io.kvscope.model.evidence;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What is known about one identifier (e-mail, account number, key, canary...) a response carried.
 *
 * @param category its class ({@code email}, {@code canary}, ...)
 * @param candidates earlier requests within reach that held it (prompt holders first when any)
 * @param heldInAPrompt some candidate held it in its prompt (a tenant wrote it), not only in a reply
 * @param tenantsInIndex tenants whose requests hold it anywhere, the recipient's request excluded
 * @param ownPromptHolds the recipient's own prompt holds it
 * @param answersSameQuestion a request that asked the recipient's question holds it in its reply
 */
public record IdentifierFacts(String category, String recipientTenant, List<Holder> candidates,
    boolean heldInAPrompt, int tenantsInIndex, boolean ownPromptHolds, boolean answersSameQuestion) {

  public IdentifierFacts {
    candidates = List.copyOf(candidates);
  }

  public boolean canary() {
    return "canary".equals(category);
  }

  public Set<String> otherTenants() {
    Set<String> tenants = new LinkedHashSet<>();
    candidates.forEach(c -> tenants.add(c.tenant()));
    tenants.remove(recipientTenant);
    return tenants;
  }

  /** Other tenants held it within reach too, but the likeliest origin is the recipient's own tenant. */
  public boolean ownTenantLikeliest() {
    return !otherTenants().isEmpty() && Candidates.likeliestIsOf(candidates, recipientTenant);
  }

  public boolean sameTenantOnly() {
    return !candidates.isEmpty() && otherTenants().isEmpty();
  }
}

package io.kvscope.model.evidence;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What is known about one verbatim passage of a response: its length, who within reach of the
 * recipient's decode pool held it, how common it is in the whole index, and what else could
 * explain it.
 *
 * @param words its length in words
 * @param recipientTenant the tenant of the response it is in
 * @param candidates earlier requests within reach that held it word for word (the recipient excluded)
 * @param tenantsInIndex tenants whose requests hold it anywhere in the index, the recipient's
 *     request excluded (counted up to a bound: a large value means "many")
 * @param ownPromptHolds the recipient's own prompt holds it
 * @param answersSameQuestion a request that asked the recipient's question holds it in its reply
 * @param stockPhrasing a rare run (under 2T words, held by fewer tenants than the public-text
 *     cut-off) made of sentences or pieces that many tenants' replies hold: the model's stock
 *     phrasing combined anew, not a passage copied from anyone
 */
public record PassageFacts(int words, String recipientTenant, List<Holder> candidates, int tenantsInIndex,
    boolean ownPromptHolds, boolean answersSameQuestion, boolean stockPhrasing) {

  public PassageFacts {
    candidates = List.copyOf(candidates);
  }

  /** Tenants among the candidates. */
  public Set<String> candidateTenants() {
    Set<String> tenants = new LinkedHashSet<>();
    candidates.forEach(c -> tenants.add(c.tenant()));
    return tenants;
  }

  /** Tenants among the candidates other than the recipient's. */
  public Set<String> otherTenants() {
    Set<String> tenants = candidateTenants();
    tenants.remove(recipientTenant);
    return tenants;
  }

  /**
   * The recipient's own tenant held it within reach, other tenants did too, and the likeliest
   * origin by the mechanism's order is the tenant's own request: most likely its own data.
   */
  public boolean ownTenantLikeliest() {
    return !otherTenants().isEmpty() && Candidates.likeliestIsOf(candidates, recipientTenant);
  }

  /** Another tenant within reach held it in a prompt: a tenant wrote it, not only the model. */
  public boolean otherTenantsPromptHeld() {
    return candidates.stream().anyMatch(c -> !c.inReply() && !c.tenant().equals(recipientTenant));
  }

  /**
   * Text specific to one other tenant: at least 2T words that one other tenant held within reach
   * and no other tenant holds in the whole index. Without mechanism evidence, the most text alone
   * can show.
   */
  public boolean specificToOneOtherTenant(int t) {
    return words >= 2 * t && otherTenants().size() == 1 && tenantsInIndex <= 1;
  }

  /** Only the recipient's own tenant held it within reach: reuse, not a leak between tenants. */
  public boolean sameTenantOnly() {
    return !candidates.isEmpty() && otherTenants().isEmpty();
  }
}

package io.kvscope.analysis.impact;

/**
 * One tenant's part in the incident.
 *
 * @param asVictim whose data leaked: their requests that were sources, how many responses (of
 *     other tenants) carried them, how many of their tokens were exposed; first counting sole
 *     attributions only, then ({@code Possible}) every candidate too
 * @param asRecipient who received it: their responses carrying others' data, from how many
 *     source requests (sole, then with candidates), how many foreign tokens
 */
public record TenantImpact(String tenant, AsVictim asVictim, AsRecipient asRecipient) {

  public record AsVictim(long requests, long recipients, long tokens, long requestsPossible, long recipientsPossible,
      long tokensPossible) {

    /** Whether any of it is certain (a sole attribution) rather than only possible. */
    public boolean certain() {
      return requests > 0;
    }
  }

  public record AsRecipient(long responses, long sources, long tokens, long sourcesPossible) {}
}

package io.kvscope.analysis.impact;

/**
 * One tenant's part in the incident.
 *
 * @param asVictim whose data leaked: their requests that were sources, how many responses (of
 *     other tenants) carried them, how many of their tokens were exposed
 * @param asRecipient who received it: their responses carrying others' data, from how many
 *     source requests, how many foreign tokens
 */
public record TenantImpact(String tenant, AsVictim asVictim, AsRecipient asRecipient) {

  public record AsVictim(long requests, long recipients, long tokens) {}

  public record AsRecipient(long responses, long sources, long tokens) {}
}

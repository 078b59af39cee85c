package io.kvscope.analysis.impact;

import java.time.Instant;

/**
 * The headline numbers of report.json (docs/report.schema.json): counts are distinct requests or tenants,
 * cross-tenant, confirmed + probable. Source requests and victim tenants count sole attributions
 * (the only request within reach that held what leaked); their {@code Possible} twins count every
 * candidate too, so the truth lies between the two.
 *
 * @param sameTenantReuse responses that carried only their own tenant's earlier data (not a leak
 *     between customers; reported apart)
 * @param leakedResponsesOwnTenantAlsoHeld of the leaked responses, those whose every leaked passage
 *     or identifier the recipient's own tenant also held within reach: each may be its own data come
 *     back, so the responses that carried another tenant's data number between the leaked responses
 *     less these and the leaked responses
 * @param reviewResponses responses that shared text with one other tenant although the engine logs
 *     show they were served normally: beside the headline, never in it ({@link Report#review})
 * @param requestsWithDisagreeingCopies requests whose records (gateway lines, trace spans) disagree
 *     on the prompt or the reply: every copy of a reply was analyzed, and a finding found in one
 *     names the copies
 */
public record Summary(
    long leakedResponses,
    long sourceRequests,
    long victimTenants,
    long recipientTenants,
    long overLengthAccepted,
    long prefillUnderruns,
    Instant firstExposure,
    Instant lastExposure,
    long tokensExposed,
    long sameTenantReuse,
    long suspectResponses,
    long sourceRequestsPossible,
    long victimTenantsPossible,
    long leakedResponsesOwnTenantAlsoHeld,
    long reviewResponses,
    long requestsWithDisagreeingCopies) {

  /** Summary figures without the disagreeing copies (a report written before they were counted). */
  public Summary(long leakedResponses, long sourceRequests, long victimTenants, long recipientTenants,
      long overLengthAccepted, long prefillUnderruns, Instant firstExposure, Instant lastExposure, long tokensExposed,
      long sameTenantReuse, long suspectResponses, long sourceRequestsPossible, long victimTenantsPossible,
      long leakedResponsesOwnTenantAlsoHeld, long reviewResponses) {
    this(leakedResponses, sourceRequests, victimTenants, recipientTenants, overLengthAccepted, prefillUnderruns,
        firstExposure, lastExposure, tokensExposed, sameTenantReuse, suspectResponses, sourceRequestsPossible,
        victimTenantsPossible, leakedResponsesOwnTenantAlsoHeld, reviewResponses, 0);
  }

  /** Summary figures without a review count (a report written before 1.3, or built by hand). */
  public Summary(long leakedResponses, long sourceRequests, long victimTenants, long recipientTenants,
      long overLengthAccepted, long prefillUnderruns, Instant firstExposure, Instant lastExposure, long tokensExposed,
      long sameTenantReuse, long suspectResponses, long sourceRequestsPossible, long victimTenantsPossible,
      long leakedResponsesOwnTenantAlsoHeld) {
    this(leakedResponses, sourceRequests, victimTenants, recipientTenants, overLengthAccepted, prefillUnderruns,
        firstExposure, lastExposure, tokensExposed, sameTenantReuse, suspectResponses, sourceRequestsPossible,
        victimTenantsPossible, leakedResponsesOwnTenantAlsoHeld, 0);
  }

  public Summary withRequestsWithDisagreeingCopies(long requests) {
    return new Summary(leakedResponses, sourceRequests, victimTenants, recipientTenants, overLengthAccepted,
        prefillUnderruns, firstExposure, lastExposure, tokensExposed, sameTenantReuse, suspectResponses,
        sourceRequestsPossible, victimTenantsPossible, leakedResponsesOwnTenantAlsoHeld, reviewResponses, requests);
  }

  /** The fewest responses that certainly carried another tenant's data. */
  public long leakedResponsesAtLeast() {
    return leakedResponses - leakedResponsesOwnTenantAlsoHeld;
  }
}

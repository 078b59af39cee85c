package io.kvscope.analysis.impact;

import java.time.Instant;

/**
 * The headline numbers of report.json (SPEC.md): counts are distinct requests or tenants,
 * cross-tenant, confirmed + probable.
 *
 * @param sameTenantReuse responses that carried only their own tenant's earlier data (not a leak
 *     between customers; reported apart)
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
    long suspectResponses) {}

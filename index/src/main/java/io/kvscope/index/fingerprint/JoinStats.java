package io.kvscope.index.fingerprint;

/**
 * What one run of the self-join did, for the report's method section.
 *
 * @param responseTerms distinct response fingerprints walked
 * @param sharedTerms of those, fingerprints carried by at least two live documents
 * @param skippedByTenantFrequency shared fingerprints skipped as boilerplate (too many tenants)
 * @param skippedSingleTenant shared fingerprints whose documents all have one tenant (skipped
 *     when same-tenant pairs are excluded)
 * @param skippedByPairLimit shared fingerprints skipped by the per-fingerprint pair guard
 * @param explainedByOwnPrompt (recipient, fingerprint) pairs not counted because the recipient's
 *     own prompt carries the fingerprint
 * @param pairUpdates (recipient, source, fingerprint) triples counted
 * @param candidates candidates emitted
 * @param spilledRuns sorted runs written to disk (0 when everything fit in memory)
 */
public record JoinStats(
    long responseTerms,
    long sharedTerms,
    long skippedByTenantFrequency,
    long skippedSingleTenant,
    long skippedByPairLimit,
    long explainedByOwnPrompt,
    long pairUpdates,
    long candidates,
    int spilledRuns) {}

package io.kvscope.samples.truth;

import java.time.Instant;

/**
 * The expected {@code report.json} summary: distinct counts over cross-tenant leaks (confirmed and
 * probable together), exposures by the recipient's gateway start time.
 */
public record SummaryTruth(long leakedResponses, long sourceRequests, long victimTenants, long recipientTenants,
    long overLengthAccepted, long prefillUnderruns, Instant firstExposure, Instant lastExposure) {}

package io.kvscope.analysis.impact;

/**
 * Responses of {@code recipientTenant} that carried data of {@code sourceTenant}: {@code responses}
 * where a request of the source tenant is a sole attribution, {@code responsesPossible} where one
 * is at least a candidate.
 */
public record MatrixCell(String sourceTenant, String recipientTenant, long responses, long tokens,
    long responsesPossible) {}

package io.kvscope.analysis.impact;

/** Responses of {@code recipientTenant} that carried data of {@code sourceTenant}. */
public record MatrixCell(String sourceTenant, String recipientTenant, long responses, long tokens) {}

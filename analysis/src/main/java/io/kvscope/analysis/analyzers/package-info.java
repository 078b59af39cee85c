/**
 * The analyzers: each one class behind {@link io.kvscope.analysis.Analyzer}, found through
 * {@code META-INF/services}, reading the index through the analysis context and emitting findings.
 * {@link io.kvscope.analysis.analyzers.ConfigAudit} judges each node's config epochs (pool vs
 * context, engine version, safeguards) and {@link io.kvscope.analysis.analyzers.VulnerableWindows}
 * turns them into windows; {@link io.kvscope.analysis.analyzers.OverLengthAccepted},
 * {@link io.kvscope.analysis.analyzers.PrefillUnderrun} and
 * {@link io.kvscope.analysis.analyzers.TimingAnomaly} find the mechanism per request;
 * {@link io.kvscope.analysis.analyzers.CrossTenantOverlap} and
 * {@link io.kvscope.analysis.analyzers.IdentifierLeaks} find the text that crossed tenants, judged
 * by the evidence rules of {@code io.kvscope.model.evidence} (docs/overlap-method.md).
 */
package io.kvscope.analysis.analyzers;

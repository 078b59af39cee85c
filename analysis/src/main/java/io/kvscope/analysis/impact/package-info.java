/**
 * The impact model: from findings to what an incident review asks. Which responses carried whose
 * data ({@link io.kvscope.analysis.impact.Summary}, {@link io.kvscope.analysis.impact.TenantImpact},
 * {@link io.kvscope.analysis.impact.MatrixCell}), when ({@link io.kvscope.analysis.impact.Window},
 * {@link io.kvscope.analysis.impact.HourCount}), and what the logs could not show
 * ({@link io.kvscope.analysis.impact.Coverage}). {@link io.kvscope.analysis.impact.Report} bundles
 * it all as the report.json contract.
 */
package io.kvscope.analysis.impact;

/**
 * Findings: the values analyzers emit. A {@link io.kvscope.analysis.finding.Finding} has a kind
 * ({@link io.kvscope.analysis.finding.FindingKind}), a {@link io.kvscope.analysis.finding.Confidence}
 * tier, the request and tenant it concerns, the {@link io.kvscope.analysis.finding.Source}s whose
 * data it carried with {@link io.kvscope.analysis.finding.Span}s on both sides, and the
 * {@link io.kvscope.analysis.finding.Evidence} that explains it. Findings never hold prompt or
 * response text; offsets point into the index.
 */
package io.kvscope.analysis.finding;

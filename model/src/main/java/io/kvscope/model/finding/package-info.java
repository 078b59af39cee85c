/**
 * Findings: the values analyzers emit. A {@link io.kvscope.model.finding.Finding} has a kind
 * ({@link io.kvscope.model.finding.FindingKind}), a {@link io.kvscope.model.finding.Confidence}
 * tier, the request and tenant it concerns, the {@link io.kvscope.model.finding.Source}s whose
 * data it carried with {@link io.kvscope.model.finding.Span}s on both sides, and the
 * {@link io.kvscope.model.finding.Evidence} that explains it. Findings never hold prompt or
 * response text; offsets point into the index.
 */
package io.kvscope.model.finding;

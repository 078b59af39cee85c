/**
 * Analysis: analyzers that stream over the index and emit findings, the impact model that turns
 * findings into the counts an incident review needs, and the writers for report.json, CSV,
 * Markdown, HTML, Arrow and per-tenant notification bundles.
 */
package io.kvscope.analysis;

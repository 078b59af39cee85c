/**
 * A probe run's evidence: {@code probe.json} (versioned, docs/probe-report.schema.json),
 * {@code probe.md} and {@code probe.html}, in a new owner-only folder per run, and the terminal
 * summary. Response text is masked unless revealed (a leaking deployment's answers may hold other
 * customers' data); markers are synthetic and always shown; everything a server wrote is escaped
 * ({@link io.kvscope.probe.report.Text}).
 */
package io.kvscope.probe.report;

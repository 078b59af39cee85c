/**
 * {@code kvscope probe}: the incident's lessons checked against a live deployment instead of its
 * logs. A run reads each engine server's config endpoints (GET only) and judges them with the
 * config audit's own rules ({@link io.kvscope.probe.config}), then, unless it is a dry run or
 * config-only, sends the canary-marker test through the deployment's front door
 * ({@link io.kvscope.probe.canary}) and writes the evidence ({@link io.kvscope.probe.report}).
 *
 * <p>The probe is a live source of config evidence, beside ingest's log readers: it sits under the
 * CLI, uses the analysis' config audit, version order and finding kinds, and nothing below it knows
 * it exists. Every byte it sends goes through {@link io.kvscope.probe.http.ProbeHttp} (timeouts,
 * size caps) after passing the run's rate limiter and budget.
 *
 * <p>Traps: a 200 is not an answer (SGLang streams some refusals as an error event inside a 200);
 * a server's prompt count of 1 for a long prompt is the incident's stub, not the prompt's length;
 * "nothing leaked" proves nothing unless fill prompts were served and a prompt past a limit was
 * answered or refused, so such a run ends "could not run", never "pass".
 */
package io.kvscope.probe;

/**
 * The canary-marker test. {@link io.kvscope.probe.canary.Planner} sizes prompts against the
 * deployment's limits and fits them under the caps; {@link io.kvscope.probe.canary.CanaryRun}
 * sends them (fill prompts all at once, then over-length and normal prompts interleaved) and
 * records each {@link io.kvscope.probe.canary.Exchange}; small rules, each one job, turn exchanges
 * into findings of the report's kinds: {@code OverLengthRule} (over_length_accepted),
 * {@code MarkerLeakRule} (canary_leak) and {@code FastFirstTokenRule} (timing_anomaly, against the
 * {@link io.kvscope.probe.canary.PrefillFit} of the everyday prompts).
 *
 * <p>Markers are random per run ({@link io.kvscope.probe.canary.Markers}); the
 * {@link io.kvscope.probe.canary.MarkerLedger} knows whose each one is, so a marker in a response it
 * was not given to names the request whose prompt it came from. Prompts are synthetic pseudo-words:
 * the probe never sends user data.
 */
package io.kvscope.probe.canary;

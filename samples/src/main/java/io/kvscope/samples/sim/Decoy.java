package io.kvscope.samples.sim;

import java.util.List;

/**
 * Text of a response that another tenant's request also held, where that is not a leak: a trap
 * for an analysis that reads text alone. Made only with {@code GeneratorOptions.traps}.
 *
 * @param request the response's request
 * @param kind {@code common_opening} (a stub's reply opens with phrasing many tenants hold; its one
 *     holder within reach is not a source), {@code pasted_question} or {@code near_duplicate} (a
 *     question another tenant asked bare, after pasted text or in other last words, answered as the
 *     bare one was and served normally)
 * @param responseStart char offset of the shared text in the response content
 * @param responseEnd exclusive end offset
 * @param words its length in words ({@link io.kvscope.samples.text.Words})
 * @param holders for a common opening, the one request within reach that held it; otherwise the
 *     other tenant's request whose bare question got the same answer
 * @param tenants for a common opening, the tenants that had held it across the incident by then; else 0
 */
record Decoy(RequestPlan request, String kind, int responseStart, int responseEnd, int words,
    List<RequestPlan> holders, int tenants) {}

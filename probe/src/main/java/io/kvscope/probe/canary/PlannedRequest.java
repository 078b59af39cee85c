package io.kvscope.probe.canary;

/**
 * One request of the plan.
 *
 * @param id stable within the run: {@code fill-03}, {@code over-pool-1}, ...
 * @param targetTokens the prompt's intended length in tokens
 * @param limit for over-length requests the limit it goes past, else null
 */
public record PlannedRequest(String id, RequestKind kind, Api api, long targetTokens, Long limit) {}

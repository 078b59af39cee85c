package io.kvscope.probe.config;

/**
 * One raw value an endpoint showed, kept as evidence beside the fact derived from it.
 *
 * @param source the request that showed it, e.g. {@code GET /server_info}
 * @param field where in the response, e.g. {@code max_total_num_tokens} or a metric sample
 * @param raw the value exactly as the server wrote it
 */
public record Observation(String source, String field, String raw) {}

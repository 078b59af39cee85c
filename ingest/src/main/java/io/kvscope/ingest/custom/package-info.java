/**
 * Custom JSONL gateway logs read through a small mapping file (SPEC input 7), so that a gateway
 * with its own schema needs no code: the mapping names, for each canonical field, the JSON
 * Pointer (RFC 6901) where a line holds it, and how times are written.
 *
 * <pre>{@code
 * {
 *   "fields": {
 *     "request_id": "/req/id",
 *     "engine_rid": "/upstream/response_id",
 *     "tenant": "/auth/org",
 *     "start_time": "/timing/start",
 *     "prompt_text": "/body/messages",
 *     "response_text": "/reply/text"
 *   },
 *   "time_unit": "ms"
 * }
 * }</pre>
 *
 * {@code time_unit} is {@code auto} (the default: epoch numbers by magnitude, strings as ISO-8601),
 * {@code s}, {@code ms}, {@code us}, {@code ns} or {@code iso8601}. Text fields may point at a
 * string or at chat messages (their contents are joined). {@code source_file} and
 * {@code source_line} are kvscope's own and cannot be mapped.
 */
package io.kvscope.ingest.custom;

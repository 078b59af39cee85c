/**
 * LiteLLM gateway logs: one {@code StandardLoggingPayload} JSON object a line (SPEC input 1),
 * streamed token by token because a line carries the whole prompt and can be megabytes long.
 * Each payload becomes one {@link io.kvscope.ingest.record.RequestRecord} keyed by LiteLLM's call
 * id, joined to the engine through the response id ({@code chatcmpl-} stripped).
 */
package io.kvscope.ingest.litellm;

/**
 * LiteLLM gateway logs: {@code StandardLoggingPayload} JSON objects (SPEC input 1), one a line
 * ({@link io.kvscope.ingest.litellm.LiteLlmIngestor}) or printed with {@code indent=4} on the
 * proxy's standard output ({@link io.kvscope.ingest.litellm.LiteLlmStdoutIngestor}), streamed token
 * by token because a payload carries the whole prompt and can be megabytes long. Each payload
 * becomes one {@link io.kvscope.ingest.record.RequestRecord} keyed by its {@code id} (the response
 * id, or LiteLLM's call id for a failure), joined to the engine through the response id
 * ({@code chatcmpl-} stripped) or a rid its error text names. {@code docs/formats.md} lists every
 * field and where LiteLLM writes it.
 */
package io.kvscope.ingest.litellm;

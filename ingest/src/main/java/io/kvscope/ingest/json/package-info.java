/**
 * What the JSON line formats (LiteLLM payloads, OTLP/JSON traces, custom JSONL) share: one
 * configured Jackson factory ({@link io.kvscope.ingest.json.JsonSupport}), error reasons that name
 * the problem and never quote the content, number and time conversions, the text of chat messages
 * in their usual shapes ({@link io.kvscope.ingest.json.MessageText}), and a look at the first lines
 * of a sniffed head for detection ({@link io.kvscope.ingest.json.JsonHead}).
 */
package io.kvscope.ingest.json;

/**
 * OpenTelemetry data in the OTLP/JSON file-exporter form (SPEC input 2): one export batch a line,
 * traces ({@code {"resourceSpans":[...]}}) or logs ({@code {"resourceLogs":[...]}}). Spans that
 * follow the GenAI semantic conventions (a model call as the gateway or SDK saw it), and their
 * {@code gen_ai.client.inference.operation.details} log events, become
 * {@link io.kvscope.ingest.record.RequestRecord}s of origin TRACE; SGLang's own request-stage spans
 * (with a {@code rid}) become {@link io.kvscope.ingest.record.EngineEvent}s. Each line is read on
 * its own, so a file resumes by line; a stage span without its own {@code rid} takes it from an
 * ancestor in the same batch, a failed call its HTTP status from an HTTP child span.
 * {@code docs/formats.md} lists every attribute and where it is defined.
 */
package io.kvscope.ingest.otlp;

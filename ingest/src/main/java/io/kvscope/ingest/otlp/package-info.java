/**
 * OpenTelemetry traces in the OTLP/JSON file-exporter form (SPEC input 2): one
 * {@code {"resourceSpans":[...]}} export batch a line. Spans that follow the GenAI semantic
 * conventions (a model call as the gateway or SDK saw it) become
 * {@link io.kvscope.ingest.record.RequestRecord}s; SGLang's own request-stage spans (with a
 * {@code rid}) become {@link io.kvscope.ingest.record.EngineEvent}s. Each line is read on its own,
 * so a file resumes by line; a stage span without its own {@code rid} takes it from an ancestor in
 * the same batch.
 */
package io.kvscope.ingest.otlp;

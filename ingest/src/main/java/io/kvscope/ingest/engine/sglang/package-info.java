/**
 * SGLang server logs, one file per node process. Every line starts with
 * {@code [YYYY-MM-DD HH:MM:SS(.mmm)?( DPn)?( TPn)?( EPn)?...] }; the timestamp is node-local and read
 * as UTC as written. {@link io.kvscope.ingest.engine.sglang.SglangLogIngestor} detects and reads
 * the files; {@link io.kvscope.ingest.engine.sglang.SglangLogReader}, SGLang's grammar on the shared
 * {@link io.kvscope.ingest.engine.EngineLogReader}, keeps the node's role and hands each message to
 * the reader for its kind: startup arguments
 * ({@link io.kvscope.ingest.engine.sglang.ServerArgsLine}), request-logger lines
 * ({@link io.kvscope.ingest.engine.sglang.RequestLogLines}), per-request timing
 * ({@link io.kvscope.ingest.engine.sglang.TimeStatsLine}), and faults and over-length rejections
 * ({@link io.kvscope.ingest.engine.sglang.FaultLines}).
 *
 * <p>Request-logger lines may carry prompt and response text (log levels 2 and 3). They are
 * recognised first and read only for ids and counts, so prompt text can neither reach a record nor
 * be mistaken for a fault line.
 */
package io.kvscope.ingest.engine.sglang;

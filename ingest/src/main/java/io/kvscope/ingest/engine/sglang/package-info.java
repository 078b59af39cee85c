/**
 * SGLang server logs, one file per node process, in the shapes docs/formats.md ("SGLang server log")
 * cites from the SGLang source. Every line starts with {@code [YYYY-MM-DD HH:MM:SS( DPn)?( TPn)?...] }
 * (SGLang writes no milliseconds; {@code .mmm} is accepted); the timestamp is node-local and read
 * as UTC as written. Scheduler lines carry rank tags, request-logger lines none; faults are written
 * once per rank and kept once. {@link io.kvscope.ingest.engine.sglang.SglangLogIngestor} detects and reads
 * the files; {@link io.kvscope.ingest.engine.sglang.SglangLogReader}, SGLang's grammar on the shared
 * {@link io.kvscope.ingest.engine.EngineLogReader}, keeps the node's role and hands each message to
 * the reader for its kind: startup arguments
 * ({@link io.kvscope.ingest.engine.sglang.ServerArgsLine}), request-logger lines
 * ({@link io.kvscope.ingest.engine.sglang.RequestLogLines}), per-request timing
 * ({@link io.kvscope.ingest.engine.sglang.TimeStatsLine}), and faults and over-length rejections
 * ({@link io.kvscope.ingest.engine.sglang.FaultLines}).
 *
 * <p>Each server of a prefill/decode pair names a request by its own rid; every event keeps the
 * rid and the bootstrap room its line names, which is all the join needs (the index's
 * {@code RequestEvents}).
 *
 * <p>Request-logger lines may carry prompt and response text (log levels 2 and 3). They are
 * recognised first and read only for ids and counts, so prompt text can neither reach a record nor
 * be mistaken for a fault line.
 */
package io.kvscope.ingest.engine.sglang;

/**
 * Engine evidence: the serving engines' own logs and metrics, read into per-request
 * {@link io.kvscope.ingest.record.EngineEvent}s, per-startup {@link io.kvscope.ingest.record.ConfigEpoch}s
 * and hourly {@link io.kvscope.ingest.record.NodeActivity}.
 *
 * <p>One sub-package per source: {@code sglang} (server logs), {@code vllm} (server logs) and
 * {@code prometheus} (text exposition snapshots), plus {@code pyrepr}, the reader for the Python
 * {@code repr()} text both engines print. This package holds what they share: the skeleton of a
 * log reader, which each engine gives its line prefix and grammar
 * ({@link io.kvscope.ingest.engine.EngineLogReader}), and of a log ingestor, which each engine gives
 * its detection signs ({@link io.kvscope.ingest.engine.EngineLogIngestor}); how a node is named
 * ({@link io.kvscope.ingest.engine.NodeNames}), how a startup becomes a config epoch
 * ({@link io.kvscope.ingest.engine.EpochTracker}), how lines are counted per node-hour
 * ({@link io.kvscope.ingest.engine.ActivityCounter}) and how the same fact logged by every
 * tensor-parallel rank is kept once ({@link io.kvscope.ingest.engine.RecentKeys}).
 *
 * <p>Engine logs are stateful: a node's role and limits come from its startup lines, so files are
 * read start to end and never resumed mid-way. Times are node-local and read as UTC as written;
 * nothing here reorders or corrects them (clocks are skewed, joins go by rid). Memory stays bounded
 * whatever the file size: per file there is one open epoch, at most a few open hours and a fixed-size
 * window of recent keys.
 */
package io.kvscope.ingest.engine;

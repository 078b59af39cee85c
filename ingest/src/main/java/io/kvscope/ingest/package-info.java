/**
 * Ingest: from files on disk to canonical records. A file is opened whatever its packing (plain,
 * gzip, zstd; told by magic number), its format is detected by content ({@link
 * io.kvscope.ingest.Ingestors#detect}), and the chosen {@link io.kvscope.ingest.Ingestor} streams it
 * into a {@link io.kvscope.ingest.RecordSink} as {@link io.kvscope.ingest.record.Ingested} values.
 * Bad lines become {@link io.kvscope.ingest.BadInput}s naming file and line; they never stop the
 * file. Nothing here knows about the index: that is the next step downstream.
 */
package io.kvscope.ingest;

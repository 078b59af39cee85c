package io.kvscope.ingest;

/**
 * Parses batches of lines of one format whose every line stands on its own (JSON lines: a gateway
 * payload, an OTLP export batch). For any split of a file into {@link LineBatch}es, the batches
 * together give the same records and the same bad lines, in the same order, as {@link
 * Ingestor#parse} of the whole file. Offered by {@link Ingestor#lineParser}; one instance may parse
 * many batches, from one thread at a time.
 */
@FunctionalInterface
public interface LineParser {

  /** Sends the records of {@code batch} to {@code sink}; a bad line is reported and the next one read. */
  void parse(LineBatch batch, RecordSink sink);
}

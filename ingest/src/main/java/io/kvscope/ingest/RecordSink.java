package io.kvscope.ingest;

import io.kvscope.ingest.record.Ingested;

/** Where an {@link Ingestor} sends what it read. Calls come from one thread per file. */
public interface RecordSink {

  void accept(Ingested item);

  /**
   * A line of a known kind that could not be read. {@code raw} is the offending text for the
   * quarantine file (it may be {@code null} when there is no text, e.g. a truncated archive).
   */
  void malformed(BadInput bad, String raw);

  /** A line that is none of the format's known kinds; counted, not reported. */
  default void skipped() {}
}

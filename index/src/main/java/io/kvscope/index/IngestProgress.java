package io.kvscope.index;

import io.kvscope.ingest.BadInput;

/** What a long ingest tells its user while it runs. Called from the ingesting thread. */
public interface IngestProgress {

  /** Before the first file: how much there is to read. */
  default void started(int files, long totalBytes) {}

  /** A file begins; {@code format} is what detection chose. */
  default void file(String name, String format) {}

  /** Raw bytes read so far across all files. */
  default void advanced(long bytesDone) {}

  /** A bad line or file, as soon as it is found. */
  default void bad(BadInput bad) {}

  /** The run ended (successfully or not). */
  default void finished() {}

  IngestProgress NONE = new IngestProgress() {};
}

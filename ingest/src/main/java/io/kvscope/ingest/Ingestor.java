package io.kvscope.ingest;

import java.io.IOException;
import java.util.Optional;

/**
 * One input format: it recognises its files by content and turns them into canonical records.
 *
 * <p>Adding a format means writing one class that implements this interface and listing it in
 * {@code META-INF/services/io.kvscope.ingest.Ingestor}; nothing else changes. Implementations are
 * stateless and thread-safe: per-file state lives inside {@link #parse}.
 */
public interface Ingestor {

  /** Short stable name used in summaries and checkpoints, e.g. {@code litellm}. */
  String name();

  /** One line for {@code --help} and summaries. */
  String description();

  /**
   * How sure this ingestor is that {@code sniff} is its format: 0 means "not mine", 100 means
   * certain. The highest score wins; ties go to registration order.
   */
  int detect(Sniff sniff, IngestOptions options);

  /**
   * Streams {@code file} into {@code sink}. Must not hold the whole file in memory. A bad line is
   * reported to {@link RecordSink#malformed} and parsing goes on with the next one; only an
   * unreadable file ends the parse early (by throwing, or by reporting where the data stopped).
   */
  void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException;

  /**
   * A parser for batches of this format's lines apart from their file, so that one file can be
   * parsed in pieces (see {@link LineParser}). Empty for formats whose lines depend on the lines
   * before them: an engine log names its node's role in a startup line and dates continuation
   * lines by the last timestamp, and printed payloads span many lines.
   */
  default Optional<LineParser> lineParser(IngestOptions options) {
    return Optional.empty();
  }

  /**
   * Whether each line parses on its own, so that an interrupted file can resume after its last
   * committed line. Stateful formats (engine logs carry the node's role in a startup line) are
   * re-read from the start, which is still exact because the index write is idempotent.
   */
  default boolean resumableByLine() {
    return false;
  }

  /**
   * Whether this format may carry request records. Formats that only tell engine facts (server
   * logs, metrics snapshots) say {@code false}; they are read first, so that requests read after
   * them are written with their engine facts already joined instead of being written twice.
   * Only speed depends on it: the rid join after every ingest is exact either way.
   */
  default boolean carriesRequests() {
    return true;
  }
}

package io.kvscope.ingest.engine;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import java.io.IOException;

/**
 * An engine's server log as an {@link Ingestor}. Shared by every engine: detection walks the file's
 * first lines into a {@link HeadTally} and leaves a mostly-JSON file to the JSON formats; parsing
 * names the node ({@link NodeNames}) and runs the engine's {@link EngineLogReader}. The engine says
 * what a line shows ({@link #tally}), how sure the tally makes it ({@link #score}) and which reader
 * reads a file ({@link #reader}).
 */
public abstract class EngineLogIngestor implements Ingestor {

  /** Enough lines to decide; a long head is mostly request text. */
  private static final int SNIFF_LINES = 2000;

  /** Notes in {@code tally} what {@code line}, one of the file's first lines, shows. */
  protected abstract void tally(String line, HeadTally tally);

  /** How sure the engine is (see {@link Ingestor#detect}) for a file that is not mostly other JSON. */
  protected abstract int score(HeadTally tally, String head);

  /** The reader for one file of {@code node}. */
  protected abstract EngineLogReader reader(InputFile file, String node, RecordSink sink);

  @Override
  public final int detect(Sniff sniff, IngestOptions options) {
    String head = sniff.text();
    HeadTally tally = new HeadTally();
    int start = 0;
    for (int lines = 0; lines < SNIFF_LINES && start < head.length(); lines++) {
      int end = head.indexOf('\n', start);
      tally(head.substring(start, end < 0 ? head.length() : end), tally);
      start = end < 0 ? head.length() : end + 1;
    }
    if (tally.mostlyOtherJson()) {
      // Mostly JSON records of another kind with some engine lines among them: a JSON format
      // should read it and report the engine lines, since an engine reader skips unknown lines silently.
      return tally.prefixAndMarker() ? 30 : 0;
    }
    return score(tally, head);
  }

  @Override
  public final void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    reader(file, NodeNames.of(file, options), sink).run();
  }

  /** Engine logs tell engine facts only, so they are read before the files that carry requests. */
  @Override
  public final boolean carriesRequests() {
    return false;
  }
}

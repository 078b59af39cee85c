package io.kvscope.index;

import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.LineReader;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.Sniff;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;

/**
 * A minimal line format for driving {@link IndexIngest} in tests: {@code #tsv} header line, then
 * {@code request_id TAB tenant TAB prompt_tokens TAB prompt_text}. It can simulate a crash after a
 * given number of lines, as a kill -9 would.
 */
final class TabSeparatedIngestor implements Ingestor {

  /** Thrown to simulate the process dying: not an Exception, so nothing on the way catches it. */
  static final class SimulatedCrash extends Error {
    SimulatedCrash() {
      super("simulated crash");
    }
  }

  private final long crashAfterLines;

  TabSeparatedIngestor(long crashAfterLines) {
    this.crashAfterLines = crashAfterLines;
  }

  TabSeparatedIngestor() {
    this(Long.MAX_VALUE);
  }

  @Override
  public String name() {
    return "tsv";
  }

  @Override
  public String description() {
    return "test format";
  }

  @Override
  public int detect(Sniff sniff, IngestOptions options) {
    return sniff.text().startsWith("#tsv") ? 100 : 0;
  }

  @Override
  public boolean resumableByLine() {
    return true;
  }

  @Override
  public void parse(InputFile file, IngestOptions options, RecordSink sink) throws IOException {
    try (LineReader lines = file.lines(sink)) {
      for (String line = lines.next(); line != null; line = lines.next()) {
        if (lines.lineNumber() > crashAfterLines) {
          throw new SimulatedCrash();
        }
        if (line.startsWith("#")) {
          sink.skipped();
          continue;
        }
        String[] cells = line.split("\t", -1);
        if (cells.length != 4) {
          sink.malformed(new BadInput(file.name(), lines.lineNumber(), "expected 4 tab-separated cells, got " + cells.length), line);
          continue;
        }
        try {
          sink.accept(RequestRecord.builder(cells[0]).tenant(cells[1]).promptTokens(Long.parseLong(cells[2]))
              .promptText(cells[3]).statusCode(200).startTime(1_000L * lines.lineNumber())
              .sourceFile(file.name()).sourceLine(lines.lineNumber()).build());
        } catch (IllegalArgumentException bad) {
          sink.malformed(new BadInput(file.name(), lines.lineNumber(), bad.getMessage()), line);
        }
      }
    }
  }
}

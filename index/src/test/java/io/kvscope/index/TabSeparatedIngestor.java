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
 * given number of lines, as a kill -9 would, and a parser bug: a line whose request id is
 * {@value #PARSER_BUG} makes it throw.
 */
final class TabSeparatedIngestor implements Ingestor {

  /** Thrown to simulate the process dying: not an Exception, so nothing on the way catches it. */
  static final class SimulatedCrash extends Error {
    SimulatedCrash() {
      super("simulated crash");
    }
  }

  /** The request id that makes the parser throw, as a parser bug on one odd value would. */
  static final String PARSER_BUG = "throw";
  /** Line n starts n seconds after this (2026-08-27T00:00:00Z). */
  static final long BASE_MS = 1_787_788_800_000L;

  private final long crashAfterLines;
  private final boolean resumable;

  TabSeparatedIngestor(long crashAfterLines, boolean resumable) {
    this.crashAfterLines = crashAfterLines;
    this.resumable = resumable;
  }

  TabSeparatedIngestor(long crashAfterLines) {
    this(crashAfterLines, true);
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
    return resumable;
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
        if (cells[0].equals(PARSER_BUG)) {
          throw new IllegalStateException("a parser bug on line " + lines.lineNumber());
        }
        if (cells.length != 4) {
          sink.malformed(new BadInput(file.name(), lines.lineNumber(), "expected 4 tab-separated cells, got " + cells.length), line);
          continue;
        }
        try {
          sink.accept(RequestRecord.builder(cells[0]).tenant(cells[1]).promptTokens(Long.parseLong(cells[2]))
              .promptText(cells[3]).statusCode(200).startTime(BASE_MS + 1_000L * lines.lineNumber())
              .sourceFile(file.name()).sourceLine(lines.lineNumber()).build());
        } catch (IllegalArgumentException bad) {
          sink.malformed(new BadInput(file.name(), lines.lineNumber(), bad.getMessage()), line);
        }
      }
    }
  }
}

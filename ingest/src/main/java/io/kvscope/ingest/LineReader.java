package io.kvscope.ingest;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads lines with their 1-based numbers, streaming. Invalid UTF-8 becomes U+FFFD rather than an
 * error (a log line with one bad byte is still a log line). Two things end reading early and are
 * reported to the sink with their line: damaged compressed data, and a line longer than
 * {@link #MAX_LINE_CHARS} (skipped whole, so a binary file without newlines cannot exhaust memory).
 */
public final class LineReader implements Closeable {

  /** 64 Mi chars: comfortably above a multi-megabyte prompt, far below the heap. */
  public static final int MAX_LINE_CHARS = 64 * 1024 * 1024;

  private final InputFile file;
  private final Reader reader;
  private final RecordSink sink;
  private final int maxLineChars;
  private final char[] buffer = new char[1 << 16];
  private int position;
  private int limit;
  private long lineNumber;
  private boolean finished;

  LineReader(InputFile file, InputStream in, RecordSink sink, long skipLines) throws IOException {
    this(file, in, sink, skipLines, MAX_LINE_CHARS);
  }

  LineReader(InputFile file, InputStream in, RecordSink sink, long skipLines, int maxLineChars) throws IOException {
    this.file = file;
    this.sink = sink;
    this.maxLineChars = maxLineChars;
    this.reader = new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE));
    while (lineNumber < skipLines && skipLine()) {
      // skipping lines an earlier run already committed
    }
  }

  /** Number of the line last returned by {@link #next()} (or skipped). */
  public long lineNumber() {
    return lineNumber;
  }

  /** The next line without its terminator, or {@code null} at the end (or at damaged data). */
  public String next() {
    StringBuilder line = new StringBuilder();
    while (true) {
      Boolean ended = scanLine(line);
      if (ended == null) {
        return null;
      }
      if (ended) {
        return stripCarriageReturn(line);
      }
      // over-long line: reported and skipped, carry on with the next one
      line.setLength(0);
    }
  }

  private boolean skipLine() {
    return scanLine(null) != null;
  }

  /**
   * Reads up to the next newline into {@code line} (or discards it when {@code line} is null).
   * Returns true for a complete line, false for an over-long one, null at end of input.
   */
  private Boolean scanLine(StringBuilder line) {
    if (finished) {
      return null;
    }
    boolean sawAnything = false;
    boolean tooLong = false;
    long chars = 0;
    while (true) {
      if (position == limit && !fill()) {
        if (!sawAnything) {
          finished = true;
          return null;
        }
        break;
      }
      sawAnything = true;
      int start = position;
      while (position < limit && buffer[position] != '\n') {
        position++;
      }
      int length = position - start;
      chars += length;
      if (line != null && !tooLong) {
        if (chars > maxLineChars) {
          tooLong = true;
          line.setLength(0);
        } else {
          line.append(buffer, start, length);
        }
      }
      if (position < limit) {
        position++; // the newline
        break;
      }
    }
    lineNumber++;
    if (tooLong) {
      sink.malformed(new BadInput(file.name(), lineNumber,
          "line is " + chars + " characters long, over the " + maxLineChars + " limit; skipped"), null);
      return false;
    }
    return true;
  }

  private boolean fill() {
    try {
      int n;
      do {
        n = reader.read(buffer, 0, buffer.length);
      } while (n == 0);
      position = 0;
      limit = Math.max(n, 0);
      return n > 0;
    } catch (IOException damaged) {
      sink.malformed(new BadInput(file.name(), lineNumber + 1,
          "input ends early (damaged or truncated compressed data: " + damaged.getMessage()
              + "); records before this line were kept"), null);
      finished = true;
      position = limit = 0;
      return false;
    }
  }

  private static String stripCarriageReturn(StringBuilder line) {
    int length = line.length();
    if (length > 0 && line.charAt(length - 1) == '\r') {
      line.setLength(length - 1);
    }
    return line.toString();
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}

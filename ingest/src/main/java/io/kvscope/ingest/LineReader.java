package io.kvscope.ingest;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Reads lines with their 1-based numbers, streaming. Invalid UTF-8 becomes U+FFFD rather than an
 * error (a log line with one bad byte is still a log line); a byte-order mark at the start of the
 * file and a {@code \r} before the newline are dropped. Two things are reported to the sink with
 * their line: damaged compressed data (reading ends; the partial line at the damage is dropped,
 * every complete line before it was returned), and a line longer than {@link #MAX_LINE_CHARS}
 * (skipped whole, so a binary file without newlines cannot exhaust memory).
 *
 * <p>Lines are split on the byte {@code \n}, which never occurs inside a multi-byte UTF-8
 * character, and each line is decoded on its own: one bad byte cannot shift the next line.
 */
public final class LineReader implements Closeable {

  /**
   * 64 Mi: comfortably above a multi-megabyte prompt, far below the heap. Counted in UTF-8 bytes,
   * which is never less than the line's length in chars, so it bounds both memory and chars.
   */
  public static final int MAX_LINE_CHARS = 64 * 1024 * 1024;

  /** A line buffer grown past this for one long line is given back afterwards. */
  private static final int KEEP_LINE_BUFFER = 1 << 20;

  private static final byte[] UTF8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private final InputFile file;
  private final InputStream in;
  private final RecordSink sink;
  private final int maxLineBytes;
  private final byte[] buffer = new byte[1 << 16];
  private int position;
  private int limit;
  private byte[] line = new byte[8192];
  private int lineLength;
  private long lineNumber;
  private boolean finished;
  /** Bytes read into {@link #buffer} so far, all fills together. */
  private long filled;
  /** Where the line last handed out (or skipped) begins, in bytes of the decompressed data. */
  private long lineStart;
  /** The CRC-32C of the line {@link #advance()} passed last, without its newline. */
  private final CRC32C lineChecksum = new CRC32C();

  LineReader(InputFile file, InputStream in, RecordSink sink, long skipLines) throws IOException {
    this(file, in, sink, skipLines, MAX_LINE_CHARS);
  }

  /** @param maxLineChars longest line kept, in UTF-8 bytes (see {@link #MAX_LINE_CHARS}) */
  LineReader(InputFile file, InputStream in, RecordSink sink, long skipLines, int maxLineChars) throws IOException {
    if (maxLineChars < 1) {
      throw new IllegalArgumentException("maxLineChars must be positive, was " + maxLineChars);
    }
    this.file = file;
    this.in = in;
    this.sink = sink;
    this.maxLineBytes = maxLineChars;
    while (lineNumber < skipLines && scanLine(Keep.NOTHING) != Scan.END) {
      // skipping lines an earlier run already committed
    }
  }

  /** Number of the line last returned by {@link #next()} (or skipped). */
  public long lineNumber() {
    return lineNumber;
  }

  /**
   * Where the line last handed out by {@link #next()} or passed by {@link #advance()} begins: its
   * first byte's offset in the decompressed data (in the file itself when it is not compressed).
   */
  public long lineStart() {
    return lineStart;
  }

  /** Where that line ends: the offset just after its newline (after its last byte at the end of the data). */
  public long lineEnd() {
    return filled - (limit - position);
  }

  /**
   * The CRC-32C of the bytes of the line {@link #advance()} passed last, without its newline:
   * {@link #checksum} of those bytes, so whoever reads them again can tell they are the same.
   */
  public int lineChecksum() {
    return (int) lineChecksum.getValue();
  }

  /** The CRC-32C of {@code bytes} {@code from} to {@code to}, as {@link #lineChecksum()} gives a line's. */
  public static int checksum(byte[] bytes, int from, int to) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, from, to - from);
    return (int) crc.getValue();
  }

  /** The next line without its terminator, or {@code null} at the end (or at damaged data). */
  public String next() {
    return nextLine(Keep.BYTES) ? decodeLine() : null;
  }

  /**
   * Passes the next line as {@link #next()} would hand it out, without decoding it: false at the
   * end (or at damaged data). Its number is {@link #lineNumber()}, its bytes lie from {@link
   * #lineStart()} to {@link #lineEnd()}, and {@link #decode} makes of them what {@link #next()}
   * returns. A line too long is reported and skipped here too.
   */
  public boolean advance() {
    return nextLine(Keep.LENGTH);
  }

  private boolean nextLine(Keep keep) {
    while (true) {
      switch (scanLine(keep)) {
        case END:
          return false;
        case COMPLETE:
          file.lineReached(lineNumber);
          return true;
        case TOO_LONG:
          continue; // reported; carry on with the next line
      }
    }
  }

  private enum Scan { COMPLETE, TOO_LONG, END }

  /** What a scan keeps of a line: nothing (resumed lines are only counted), its length, or its bytes. */
  private enum Keep { NOTHING, LENGTH, BYTES }

  /**
   * Reads up to the next newline, keeping of it what {@code keep} says. A last line without a
   * newline is complete; a line cut by damaged data is not.
   */
  private Scan scanLine(Keep keep) {
    if (finished) {
      return Scan.END;
    }
    lineLength = 0;
    lineStart = lineEnd();
    if (keep == Keep.LENGTH) {
      lineChecksum.reset();
    }
    boolean sawAnything = false;
    boolean tooLong = false;
    long bytes = 0;
    while (true) {
      if (position == limit) {
        Fill fill = fill();
        if (fill == Fill.DAMAGED) {
          return Scan.END; // the partial line is not a line; fill() reported the damage
        }
        if (fill == Fill.EOF) {
          finished = true;
          if (!sawAnything) {
            return Scan.END;
          }
          break;
        }
      }
      sawAnything = true;
      int start = position;
      int newline = indexOfNewline(buffer, position, limit);
      int end = newline < 0 ? limit : newline;
      int length = end - start;
      bytes += length;
      if (keep != Keep.NOTHING && !tooLong) {
        if (bytes > maxLineBytes) {
          tooLong = true;
          releaseLineBuffer();
        } else if (keep == Keep.BYTES) {
          append(start, length);
        } else if (keep == Keep.LENGTH) {
          lineChecksum.update(buffer, start, length);
        }
      }
      position = newline < 0 ? limit : newline + 1;
      if (newline >= 0) {
        break;
      }
    }
    lineNumber++;
    if (tooLong) {
      sink.malformed(new BadInput(file.name(), lineNumber,
          "line is " + bytes + " bytes long, over the " + maxLineBytes + " byte limit; skipped"), null);
      return Scan.TOO_LONG;
    }
    return Scan.COMPLETE;
  }

  /** Where the first {@code \n} in {@code bytes} {@code from} to {@code to} is, or -1: what ends a line here. */
  public static int indexOfNewline(byte[] bytes, int from, int to) {
    for (int i = from; i < to; i++) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void append(int start, int length) {
    int needed = lineLength + length;
    if (needed > line.length) {
      line = Arrays.copyOf(line, (int) Math.min(Math.max(needed, 2L * line.length), maxLineBytes));
    }
    System.arraycopy(buffer, start, line, lineLength, length);
    lineLength = needed;
  }

  private String decodeLine() {
    String text = decode(line, 0, lineLength, lineNumber);
    if (line.length > KEEP_LINE_BUFFER) {
      releaseLineBuffer();
    }
    return text;
  }

  /**
   * Line {@code number}'s text from its bytes {@code from} to {@code to} (without its newline), as
   * {@link #next()} hands it out: a {@code \r} before the newline and the first line's byte-order
   * mark dropped, invalid UTF-8 as U+FFFD.
   */
  public static String decode(byte[] bytes, int from, int to, long number) {
    if (to > from && bytes[to - 1] == '\r') {
      to--;
    }
    if (number == 1 && to - from >= 3 && Arrays.equals(bytes, from, from + 3, UTF8_BOM, 0, 3)) {
      from += 3;
    }
    // The String constructor replaces malformed UTF-8 with U+FFFD.
    return new String(bytes, from, to - from, StandardCharsets.UTF_8);
  }

  private void releaseLineBuffer() {
    line = new byte[8192];
    lineLength = 0;
  }

  private enum Fill { DATA, EOF, DAMAGED }

  private Fill fill() {
    try {
      int n;
      do {
        n = in.read(buffer, 0, buffer.length);
      } while (n == 0);
      position = 0;
      limit = Math.max(n, 0);
      filled += limit;
      return n > 0 ? Fill.DATA : Fill.EOF;
    } catch (IOException damaged) {
      sink.malformed(new BadInput(file.name(), lineNumber + 1,
          "input ends early (damaged or truncated data: " + damaged.getMessage()
              + "); the lines before this one were kept"), null);
      file.markEndedEarly();
      finished = true;
      position = limit = 0;
      return Fill.DAMAGED;
    }
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}

package io.kvscope.probe.http;

import java.io.IOException;
import java.io.Reader;

/**
 * Lines of a response body, stopping at a character cap: a server that sends megabytes without a
 * newline, or never stops, costs the probe at most the cap in memory.
 */
final class BoundedLines {

  private final Reader in;
  private final long maxChars;
  private final char[] buffer = new char[8192];
  private int pos;
  private int len;
  private long consumed;
  private boolean truncated;

  BoundedLines(Reader in, long maxChars) {
    this.in = in;
    this.maxChars = maxChars;
  }

  /** The next line without its terminator, or null at the end of the body or at the cap. */
  String next() throws IOException {
    if (truncated) {
      return null;
    }
    StringBuilder line = null;
    while (true) {
      if (pos == len) {
        len = in.read(buffer);
        pos = 0;
        if (len <= 0) {
          len = 0;
          return line == null ? null : line.toString();
        }
      }
      if (line == null) {
        line = new StringBuilder();
      }
      while (pos < len) {
        char c = buffer[pos++];
        if (++consumed > maxChars) {
          truncated = true;
          len = pos = 0;
          return null;
        }
        if (c == '\n') {
          int end = line.length();
          if (end > 0 && line.charAt(end - 1) == '\r') {
            line.setLength(end - 1);
          }
          return line.toString();
        }
        line.append(c);
      }
    }
  }

  boolean truncated() {
    return truncated;
  }
}

package io.kvscope.ingest.engine.sglang;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The {@code [2026-08-27 10:00:01.123 DP0 TP3] } prefix of an SGLang log line: its time (node-local,
 * read as UTC) and where the message starts. Python's default {@code ,123} milliseconds and an ISO
 * {@code T} separator are accepted too; anything between the time and {@code ]} (rank tags) is ignored.
 *
 * @param valid false when the line has the prefix's shape but an impossible date or time
 */
record SglangPrefix(long time, int messageStart, boolean valid) {

  /** Rank tags are short; a longer bracket is not a prefix. */
  private static final int MAX_TAGS = 64;

  /** The prefix of {@code line}, or {@code null} when the line has none (a continuation). */
  static SglangPrefix parse(String line) {
    int n = line.length();
    if (n < 21 || line.charAt(0) != '[') {
      return null;
    }
    if (!digits(line, 1, 4) || line.charAt(5) != '-' || !digits(line, 6, 2) || line.charAt(8) != '-'
        || !digits(line, 9, 2) || (line.charAt(11) != ' ' && line.charAt(11) != 'T')
        || !digits(line, 12, 2) || line.charAt(14) != ':' || !digits(line, 15, 2)
        || line.charAt(17) != ':' || !digits(line, 18, 2)) {
      return null;
    }
    int i = 20;
    int millis = 0;
    if (i < n && (line.charAt(i) == '.' || line.charAt(i) == ',')) {
      int start = ++i;
      while (i < n && Character.isDigit(line.charAt(i))) {
        i++;
      }
      int digits = i - start;
      if (digits == 0) {
        return null;
      }
      millis = fraction(line, start, Math.min(digits, 3));
    }
    if (i >= n || (line.charAt(i) != ']' && line.charAt(i) != ' ')) {
      return null;
    }
    int close = line.indexOf(']', i);
    if (close < 0 || close - i > MAX_TAGS) {
      return null;
    }
    int message = close + 1;
    if (message < n && line.charAt(message) == ' ') {
      message++;
    }
    try {
      LocalDateTime t = LocalDateTime.of(num(line, 1, 4), num(line, 6, 2), num(line, 9, 2),
          num(line, 12, 2), num(line, 15, 2), num(line, 18, 2));
      return new SglangPrefix(t.toEpochSecond(ZoneOffset.UTC) * 1000L + millis, message, true);
    } catch (DateTimeException impossible) {
      return new SglangPrefix(0, message, false);
    }
  }

  private static boolean digits(String s, int from, int count) {
    for (int i = from; i < from + count; i++) {
      if (!Character.isDigit(s.charAt(i)) || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static int num(String s, int from, int count) {
    int v = 0;
    for (int i = from; i < from + count; i++) {
      v = v * 10 + (s.charAt(i) - '0');
    }
    return v;
  }

  private static int fraction(String s, int from, int digits) {
    int v = num(s, from, digits);
    for (int d = digits; d < 3; d++) {
      v *= 10;
    }
    return v;
  }
}

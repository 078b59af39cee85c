package io.kvscope.ingest.engine.vllm;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The prefix of a vLLM log line: {@code [(Proc pid=N) ]LEVEL MM-DD HH:MM:SS[.mmm] [file.py:N] } or
 * the older {@code LEVEL MM-DD HH:MM:SS file.py:N] }.
 *
 * @param valid false when the prefix is there but its month/day/time cannot be a date
 */
record VllmPrefix(int month, int day, int hour, int minute, int second, int millis, int messageStart,
    boolean valid) {

  private static final Pattern PREFIX = Pattern.compile(
      "^(?:\\([^)]{1,80}\\)\\s+)?(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)\\s+"
          + "(\\d{2})-(\\d{2})\\s+(\\d{2}):(\\d{2}):(\\d{2})(?:[.,](\\d{1,6}))?\\s+"
          + "(?:\\[[^\\]\\s]{1,200}\\]|[^\\s\\]]{1,200}:\\d+\\])\\s?");

  /** The prefix of {@code line}, or {@code null} for a line without one (a continuation). */
  static VllmPrefix parse(String line) {
    if (line.isEmpty()) {
      return null;
    }
    char c = line.charAt(0);
    if (c != '(' && c != 'D' && c != 'I' && c != 'W' && c != 'E' && c != 'C') {
      return null;
    }
    Matcher m = PREFIX.matcher(line);
    if (!m.lookingAt()) {
      return null;
    }
    int month = Integer.parseInt(m.group(1));
    int day = Integer.parseInt(m.group(2));
    int hour = Integer.parseInt(m.group(3));
    int minute = Integer.parseInt(m.group(4));
    int second = Integer.parseInt(m.group(5));
    int millis = 0;
    if (m.group(6) != null) {
      String f = (m.group(6) + "00").substring(0, 3);
      millis = Integer.parseInt(f);
    }
    boolean valid = month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour < 24 && minute < 60
        && second < 61;
    return new VllmPrefix(month, day, hour, minute, Math.min(second, 59), millis, m.end(), valid);
  }
}

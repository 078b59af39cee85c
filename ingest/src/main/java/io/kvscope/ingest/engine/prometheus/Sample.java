package io.kvscope.ingest.engine.prometheus;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One exposition sample line: {@code name{label="value",...} value [timestamp_ms]}.
 *
 * @param timestamp milliseconds since the epoch, or {@code null} when the sample has none
 */
public record Sample(String name, Map<String, String> labels, double value, Long timestamp) {

  /** Reads one sample line; throws {@link IllegalArgumentException} naming what is wrong. */
  public static Sample parse(String line) {
    Cursor c = new Cursor(line);
    String name = c.name();
    if (name.isEmpty()) {
      throw new IllegalArgumentException("sample without a metric name");
    }
    Map<String, String> labels = new LinkedHashMap<>();
    if (c.peek() == '{') {
      c.pos++;
      while (true) {
        c.skipSpace();
        if (c.peek() == '}') {
          c.pos++;
          break;
        }
        String label = c.name();
        if (label.isEmpty()) {
          throw new IllegalArgumentException("label without a name");
        }
        c.skipSpace();
        c.expect('=');
        c.skipSpace();
        labels.put(label, c.quoted());
        c.skipSpace();
        if (c.peek() == ',') {
          c.pos++;
        } else if (c.peek() != '}') {
          throw new IllegalArgumentException("expected ',' or '}' in the labels");
        }
      }
    }
    c.skipSpace();
    String value = c.token();
    if (value.isEmpty()) {
      throw new IllegalArgumentException("sample without a value");
    }
    double v;
    try {
      v = switch (value) {
        case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
        case "-Inf" -> Double.NEGATIVE_INFINITY;
        case "NaN" -> Double.NaN;
        default -> Double.parseDouble(value);
      };
    } catch (NumberFormatException notANumber) {
      throw new IllegalArgumentException("sample value is not a number");
    }
    c.skipSpace();
    Long timestamp = null;
    String ts = c.token();
    if (!ts.isEmpty()) {
      try {
        timestamp = Long.parseLong(ts);
      } catch (NumberFormatException notAnInt) {
        throw new IllegalArgumentException("sample timestamp is not an integer");
      }
    }
    c.skipSpace();
    if (c.pos < line.length()) {
      throw new IllegalArgumentException("unexpected text after the sample");
    }
    return new Sample(name, labels, v, timestamp);
  }

  private static final class Cursor {
    final String s;
    int pos;

    Cursor(String s) {
      this.s = s;
    }

    char peek() {
      return pos < s.length() ? s.charAt(pos) : '\0';
    }

    void skipSpace() {
      while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t')) {
        pos++;
      }
    }

    void expect(char c) {
      if (peek() != c) {
        throw new IllegalArgumentException("expected '" + c + "'");
      }
      pos++;
    }

    String name() {
      int start = pos;
      while (pos < s.length()) {
        char c = s.charAt(pos);
        boolean ok = Character.isLetter(c) && c < 128 || c == '_' || c == ':'
            || (pos > start && Character.isDigit(c) && c < 128);
        if (!ok) {
          break;
        }
        pos++;
      }
      return s.substring(start, pos);
    }

    String quoted() {
      expect('"');
      StringBuilder out = new StringBuilder();
      while (pos < s.length()) {
        char c = s.charAt(pos++);
        if (c == '"') {
          return out.toString();
        }
        if (c == '\\' && pos < s.length()) {
          char e = s.charAt(pos++);
          out.append(e == 'n' ? '\n' : e);
        } else {
          out.append(c);
        }
      }
      throw new IllegalArgumentException("label value is not closed");
    }

    String token() {
      int start = pos;
      while (pos < s.length() && s.charAt(pos) != ' ' && s.charAt(pos) != '\t') {
        pos++;
      }
      return s.substring(start, pos);
    }
  }
}

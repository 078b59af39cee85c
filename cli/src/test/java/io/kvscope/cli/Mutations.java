package io.kvscope.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/**
 * Random damage to one line's bytes, of the kinds log shipping and disks produce, and the values an
 * attacker chooses: hostile strings (terminal escapes, bidi controls, formulas, path tricks),
 * extreme numbers and keys given twice with different values. Never adds a newline.
 */
final class Mutations {

  private static final byte[][] INSERTS = {
      {0}, {(byte) 0xFF}, {(byte) 0xC3}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {'"'}, {'{'}, {'}'}, {'['},
      {']'}, {'\\'}, {','}, {':'}, {'\r'}, {'\t'}, {0x1b, '[', '3', '1', 'm'}, "null".getBytes(StandardCharsets.UTF_8),
      "\\u0000".getBytes(StandardCharsets.UTF_8), "\\ud800".getBytes(StandardCharsets.UTF_8),
      "1e999999".getBytes(StandardCharsets.UTF_8), "-".getBytes(StandardCharsets.UTF_8)};

  private Mutations() {}

  /** One to three random edits. */
  static byte[] mutate(byte[] line, Random random) {
    byte[] out = line;
    int edits = 1 + random.nextInt(3);
    for (int e = 0; e < edits && out.length > 0; e++) {
      out = once(out, random);
    }
    return out;
  }

  private static byte[] once(byte[] line, Random random) {
    int at = random.nextInt(line.length);
    return switch (random.nextInt(12)) {
      case 9 -> hostileString(line, random);
      case 10 -> extremeNumber(line, random);
      case 11 -> duplicateKey(line, random);
      case 0 -> Arrays.copyOf(line, at); // cut short, as a crash mid-write leaves it
      case 1 -> concat(Arrays.copyOf(line, at), Arrays.copyOfRange(line, Math.min(line.length, at + 1 + random.nextInt(20)), line.length));
      case 2 -> concat(concat(Arrays.copyOf(line, at), INSERTS[random.nextInt(INSERTS.length)]), Arrays.copyOfRange(line, at, line.length));
      case 3 -> flip(line, at, random);
      case 4 -> retype(line, random);
      case 5 -> concat(Arrays.copyOf(line, at), Arrays.copyOfRange(line, random.nextInt(line.length), line.length)); // spliced
      case 6 -> concat(line, Arrays.copyOf(line, at)); // a second, cut copy glued on
      case 7 -> noise(line, at, random);
      default -> new String(line, StandardCharsets.UTF_8).replaceFirst("\"[a-z_]+\":", "\"" + "x".repeat(random.nextInt(3)) + "\":")
          .getBytes(StandardCharsets.UTF_8); // a key renamed or emptied
    };
  }

  /** JSON string contents a customer can send as a tenant, an id or a prompt (JSON-escaped where needed). */
  private static final String[] HOSTILE_STRINGS = {"\\u001b]52;c;SGVsbG8=\\u0007", "\\u001b[2J", "a\\nForged: line",
      "\\r\\u0000", "\\u202eexe.txt", "=HYPERLINK(\\\"https://evil.example\\\")", "@SUM(1+1)", "../../etc/passwd",
      "[x](https://evil.example)", "\\u0085\\u009b2J", "\\ud800", "x".repeat(300)};

  /** Numbers no log holds: overflowing, non-finite (as the strings some encoders write), negative, absurd. */
  private static final String[] EXTREME_NUMBERS = {"1e300", "-1e300", "9223372036854775808", "99999999999999999999999",
      "\"Infinity\"", "\"NaN\"", "\"-Infinity\"", "-1", "1e-400", "253402300800", "\"+300000-01-01T00:00:00Z\""};

  private static byte[] hostileString(byte[] line, Random random) {
    return replaceOne(line, ":\"[^\"]*\"", ":\"" + HOSTILE_STRINGS[random.nextInt(HOSTILE_STRINGS.length)] + "\"", random);
  }

  private static byte[] extremeNumber(byte[] line, Random random) {
    return replaceOne(line, ":-?[0-9][0-9.eE+-]*", ":" + EXTREME_NUMBERS[random.nextInt(EXTREME_NUMBERS.length)], random);
  }

  /** The first key of an object given again right after it, with another value. */
  private static byte[] duplicateKey(byte[] line, Random random) {
    return replaceOne(line, "\\{\"([a-zA-Z_.]+)\":", "{\"$1\":" + EXTREME_NUMBERS[random.nextInt(EXTREME_NUMBERS.length)]
        + ",\"$1\":", random);
  }

  /** Replaces one random match of {@code pattern} (the replacement may use groups). */
  private static byte[] replaceOne(byte[] line, String pattern, String replacement, Random random) {
    String text = new String(line, StandardCharsets.UTF_8);
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(pattern).matcher(text);
    int count = 0;
    while (m.find()) {
      count++;
    }
    if (count == 0) {
      return line;
    }
    int pick = random.nextInt(count);
    m.reset();
    StringBuilder out = new StringBuilder();
    for (int n = 0; m.find(); n++) {
      if (n == pick) {
        m.appendReplacement(out, replacement.contains("$1") ? replacement : java.util.regex.Matcher.quoteReplacement(replacement));
        break;
      }
    }
    m.appendTail(out);
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] flip(byte[] line, int at, Random random) {
    byte[] out = line.clone();
    byte b;
    do {
      b = (byte) (out[at] ^ (1 << random.nextInt(8)));
    } while (b == '\n');
    out[at] = b;
    return out;
  }

  /** Replaces one JSON value with a value of another type. */
  private static byte[] retype(byte[] line, Random random) {
    String text = new String(line, StandardCharsets.UTF_8);
    String[] replacements = {"\"str\"", "123", "-1", "true", "null", "{}", "[]", "[[1]]", "{\"a\":1}", "1.7976931348623157E309"};
    String replacement = replacements[random.nextInt(replacements.length)];
    String[] patterns = {":\"[^\"]*\"", ":-?[0-9][0-9.eE+-]*", ":\\{[^{}]*\\}", ":\\[[^\\[\\]]*\\]", ":(true|false|null)"};
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(patterns[random.nextInt(patterns.length)]).matcher(text);
    int count = 0;
    while (m.find()) {
      count++;
    }
    if (count == 0) {
      return line;
    }
    int pick = random.nextInt(count);
    m.reset();
    StringBuilder out = new StringBuilder();
    int n = 0;
    while (m.find()) {
      if (n++ == pick) {
        m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(":" + replacement));
        break;
      }
    }
    m.appendTail(out);
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] noise(byte[] line, int at, Random random) {
    byte[] out = line.clone();
    int end = Math.min(out.length, at + 1 + random.nextInt(16));
    for (int i = at; i < end; i++) {
      byte b;
      do {
        b = (byte) random.nextInt(256);
      } while (b == '\n');
      out[i] = b;
    }
    return out;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** Lines that are not blank once decoded, as a line reader sees them. */
  static long nonBlankLines(byte[] bytes) {
    long count = 0;
    int start = 0;
    for (int i = 0; i <= bytes.length; i++) {
      if (i == bytes.length || bytes[i] == '\n') {
        if (i > start && !new String(bytes, start, i - start, StandardCharsets.UTF_8).isBlank()) {
          count++;
        }
        start = i + 1;
      }
    }
    return count;
  }

  static byte[] bytesOf(ByteArrayOutputStream out) {
    return out.toByteArray();
  }
}

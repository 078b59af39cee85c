package io.kvscope.ingest;

/**
 * The one place that decides how a value from the logs (a tenant, an id, a file name, a reason)
 * may appear in anything a person reads: a terminal, a summary, a CSV cell, Markdown, HTML.
 *
 * <p>Values are written by customers and by whoever named the files, so they may hold terminal
 * escapes (OSC 52 writes the clipboard, CSI clears the screen), NUL and BEL, a newline that forges
 * a line of the summary, or a right-to-left override that shows a name backwards. Every such
 * character becomes visible text: {@code \n}, {@code \r}, {@code \t}, {@code \x1b} for the other
 * C0 and C1 controls and DEL, <code>&#92;u202e</code> for Unicode line separators and bidirectional
 * controls. Everything else is kept as it is, including non-Latin letters and the backslash: a
 * value without such characters reads exactly as the logs said (in a CSV cell or a JSON text as
 * much as on a terminal).
 */
public final class Printable {

  private Printable() {}

  /** {@code value} with every unsafe character escaped; {@code -} for {@code null}. */
  public static String text(String value) {
    if (value == null) {
      return "-";
    }
    int first = firstToEscape(value);
    if (first < 0) {
      return value;
    }
    StringBuilder out = new StringBuilder(value.length() + 16).append(value, 0, first);
    for (int i = first; i < value.length(); ) {
      int cp = value.codePointAt(i);
      if (isUnsafe(cp)) {
        appendEscape(out, cp);
      } else {
        out.appendCodePoint(cp);
      }
      i += Character.charCount(cp);
    }
    return out.toString();
  }

  /** {@code value.toString()} escaped, {@code -} for {@code null}: for ids, paths, numbers alike. */
  public static String text(Object value) {
    return text(value == null ? null : value.toString());
  }

  /** True when {@code value} holds nothing that {@link #text} would change. */
  public static boolean isClean(String value) {
    return value == null || firstToEscape(value) < 0;
  }

  /**
   * True for a code point that must never reach a reader raw: C0 and C1 controls, DEL, the Unicode
   * line and paragraph separators, and the bidirectional controls that reorder what is shown.
   */
  public static boolean isUnsafe(int cp) {
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
      return true;
    }
    return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x2028 && cp <= 0x202e)
        || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
  }

  /** Appends the visible escape of an unsafe code point. */
  public static void appendEscape(StringBuilder out, int cp) {
    switch (cp) {
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      default -> out.append(cp <= 0xff ? String.format("\\x%02x", cp) : String.format("\\u%04x", cp));
    }
  }

  private static int firstToEscape(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (isUnsafe(c)) {
        return i;
      }
    }
    return -1;
  }
}

package io.kvscope.probe.report;

/**
 * Escaping for what servers sent (error messages, response excerpts, header values): no control
 * character reaches a terminal or a report, and nothing a server wrote becomes markup.
 */
public final class Text {

  private Text() {}

  /** Control characters (newlines and tabs too) as {@code ?}: one line, safe on a terminal. */
  public static String line(String s) {
    if (s == null) {
      return "-";
    }
    StringBuilder b = new StringBuilder(s.length());
    s.codePoints().forEach(c -> {
      if (Character.isISOControl(c) || c == 0x2028 || c == 0x2029 || Character.getType(c) == Character.FORMAT) {
        b.append('?');
      } else {
        b.appendCodePoint(c);
      }
    });
    return b.toString();
  }

  static String html(String s) {
    String t = line(s);
    StringBuilder b = new StringBuilder(t.length() + 16);
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  /** Markdown table-cell and inline text: the characters that start markup escaped (brackets make links, pipes cells). */
  static String md(String s) {
    String t = line(s);
    StringBuilder b = new StringBuilder(t.length() + 16);
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if ("\\`*_[]<>|~".indexOf(c) >= 0) {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }
}

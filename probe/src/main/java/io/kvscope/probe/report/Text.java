package io.kvscope.probe.report;

import io.kvscope.analysis.report.Html;
import io.kvscope.ingest.Printable;

/**
 * Escaping for what servers sent (error messages, response excerpts, header values): no control
 * character reaches a terminal or a report, and nothing a server wrote becomes markup.
 */
public final class Text {

  private Text() {}

  /**
   * One line, safe on a terminal: control, separator and bidirectional characters (newlines and
   * tabs too) as visible escapes, by kvscope's one escaping rule ({@link Printable}).
   */
  public static String line(String s) {
    return Printable.text(s);
  }

  /** One line (as {@link #line}) as HTML text: nothing a server wrote becomes markup. */
  static String html(String s) {
    return Html.esc(line(s));
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

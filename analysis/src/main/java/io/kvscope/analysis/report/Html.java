package io.kvscope.analysis.report;

import io.kvscope.ingest.Printable;

/** Escaping for text and attribute values that came from logs (or from servers, in kvscope probe's report). */
public final class Html {

  private Html() {}

  /** {@code s} as HTML text or an attribute value; {@code "-"} for null. */
  public static String esc(String s) {
    if (s == null) {
      return "-";
    }
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        // Line breaks and tabs as references (they still lay out revealed text), any other control
        // character as visible text: no value puts a raw control character into the page.
        case '\n' -> b.append("&#10;");
        case '\t' -> b.append("&#9;");
        default -> {
          if (Printable.isUnsafe(c)) {
            Printable.appendEscape(b, c);
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }

  private static final java.util.regex.Pattern TIME =
      java.util.regex.Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z");

  /** Keeps ISO timestamps in already escaped text on one line (browsers break them at hyphens). */
  static String times(String escaped) {
    return TIME.matcher(escaped).replaceAll("<span class=\"t\">$0</span>");
  }

  /** At most {@code max} characters, with an ellipsis when cut (for labels in tight places). */
  static String cut(String s, int max) {
    if (s == null) {
      return "-";
    }
    return s.length() <= max ? s : s.substring(0, Math.max(1, max - 1)) + "\u2026";
  }
}

package io.kvscope.analysis.report;

import io.kvscope.ingest.Printable;

/**
 * Log-supplied values in Markdown (report.md, the tenant bundles' notification.md). Nothing a
 * customer puts in a tenant name or a request id may become a link, an image that loads a
 * tracking pixel, an HTML tag, emphasis, or a new table row; control characters are shown as
 * {@link Printable} escapes.
 */
final class Markdown {

  private Markdown() {}

  /**
   * A value as literal text: Markdown and HTML specials backslash-escaped; so are the characters
   * GitHub's autolinks start from: the colon of {@code ://}, the {@code @} of an address and the
   * dot after {@code www}. Line breaks are shown as a symbol so a table row stays one row. An underscore inside a word cannot start emphasis and is left alone, so
   * {@code kv_canary} stays readable.
   */
  static String text(String s) {
    if (s == null) {
      return "-";
    }
    StringBuilder b = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\', '`', '*', '[', ']', '|', '#', '~', '!', '{', '}', '<', '>', '&', '@' -> b.append('\\').append(c);
        case ':' -> b.append(s.startsWith("//", i + 1) ? "\\:" : ":");
        case '_' -> {
          boolean inWord = i > 0 && i + 1 < s.length() && Character.isLetterOrDigit(s.charAt(i - 1))
              && Character.isLetterOrDigit(s.charAt(i + 1));
          b.append(inWord ? "_" : "\\_");
        }
        case '.' -> b.append(i >= 3 && s.regionMatches(true, i - 3, "www", 0, 3) ? "\\." : ".");
        case '\n' -> b.append("\u23ce ");
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

  /**
   * A value as a code span (nothing inside is Markdown, HTML or an autolink) fenced with more
   * backticks than the value holds; pipes escaped, as tables require even in code; control
   * characters escaped first.
   */
  static String code(String s) {
    if (s == null) {
      return "-";
    }
    String flat = Printable.text(s).replace("|", "\\|");
    int longest = 0;
    int run = 0;
    for (int i = 0; i < flat.length(); i++) {
      run = flat.charAt(i) == '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    String fence = "`".repeat(longest + 1);
    String pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
    return fence + pad + flat + pad + fence;
  }
}

package io.kvscope.samples.testing;

/**
 * Counts tokens the way the generator defines them (documented in samples/README.md): every
 * whitespace-separated chunk is a word token, a trailing {@code . , ; : ? !} glued to a chunk is a
 * token of its own, and every paragraph break {@code "\n\n"} is a token.
 */
public final class TokenCount {

  private TokenCount() {}

  public static long count(String text) {
    long tokens = 0;
    int n = text.length();
    int i = 0;
    while (i < n) {
      char c = text.charAt(i);
      if (c == '\n' && i + 1 < n && text.charAt(i + 1) == '\n') {
        tokens++;
        i += 2;
        continue;
      }
      if (Character.isWhitespace(c)) {
        i++;
        continue;
      }
      int start = i;
      while (i < n && !Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      tokens++;
      if (i - start > 1 && ".,;:?!".indexOf(text.charAt(i - 1)) >= 0) {
        tokens++;
      }
    }
    return tokens;
  }
}

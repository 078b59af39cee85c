package io.kvscope.samples.testing;

/**
 * Counts tokens the way the generator defines them (documented in samples/README.md): every
 * whitespace-separated chunk is a word token, a trailing {@code . , ; : ? !} glued to a chunk is a
 * token of its own, every paragraph break {@code "\n\n"} is a token, a chunk longer than 8 chars
 * counts one token per 6 chars, and each Han, kana, Hangul or Thai character is a token.
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
      int end = i;
      if (i - start > 1 && ".,;:?!".indexOf(text.charAt(i - 1)) >= 0) {
        tokens++;
        end--;
      }
      tokens += chunkTokens(text, start, end);
    }
    return tokens;
  }

  /** Tokens of one chunk: a new one at each unspaced-script char, after one, and every 6 chars of a long chunk. */
  private static long chunkTokens(String text, int start, int end) {
    if (end <= start) {
      return 0;
    }
    boolean cut = end - start > 8;
    long tokens = 1;
    int pieceStart = start;
    for (int i = start + 1; i < end; i++) {
      if (unspaced(text.charAt(i)) || unspaced(text.charAt(i - 1)) || cut && i - pieceStart >= 6) {
        tokens++;
        pieceStart = i;
      }
    }
    return tokens;
  }

  private static boolean unspaced(char c) {
    if (c < 0x0E00) {
      return false;
    }
    Character.UnicodeScript s = Character.UnicodeScript.of(c);
    return s == Character.UnicodeScript.HAN || s == Character.UnicodeScript.HIRAGANA
        || s == Character.UnicodeScript.KATAKANA || s == Character.UnicodeScript.HANGUL
        || s == Character.UnicodeScript.THAI;
  }
}

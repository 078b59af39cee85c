package io.kvscope.samples.testing;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts tokens the way the generator defines them (documented in samples/README.md): every
 * whitespace-separated chunk is a word token, a trailing {@code . , ; : ? !} glued to a chunk is a
 * token of its own, and every paragraph break {@code "\n\n"} is a token. Inside a chunk, every
 * character of a script written without spaces or of the CJK punctuation blocks (with its marks)
 * is a token, and so is each run of other characters between them (the trailing mark rule applies
 * to the chunk's last run).
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
      String[] runs = SPACELESS.split(text.substring(start, i), -1);
      Matcher m = SPACELESS.matcher(text.substring(start, i));
      while (m.find()) {
        tokens++;
      }
      for (String run : runs) {
        if (!run.isEmpty()) {
          tokens++;
        }
      }
      String last = runs[runs.length - 1];
      if (last.length() > 1 && ".,;:?!".indexOf(last.charAt(last.length() - 1)) >= 0) {
        tokens++;
      }
    }
    return tokens;
  }

  private static final Pattern SPACELESS = Pattern.compile("[\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}\\p{IsThai}"
      + "\\p{IsLao}\\p{IsKhmer}\\p{IsMyanmar}\\p{IsTibetan}\\p{InCJK_Symbols_and_Punctuation}"
      + "\\p{InHalfwidth_and_Fullwidth_Forms}]\\p{M}*");
}

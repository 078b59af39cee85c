package io.kvscope.samples.text;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * Text as a sequence of tokens, the generator's stand-in for a tokenizer: a token is one word,
 * number, identifier or punctuation mark together with the whitespace before it, so the text is
 * exactly the concatenation of its tokens and a token span maps to one verbatim substring. A
 * paragraph break ({@code "\n\n"}) is a token of its own.
 *
 * <p>Immutable. Offsets are in chars (UTF-16 units), as the truth states them.
 */
public final class TokenText {

  private final String text;
  private final int[] starts;

  private TokenText(String text, int[] starts) {
    this.text = text;
    this.starts = starts;
  }

  public static Builder builder() {
    return new Builder(64);
  }

  public static Builder builder(int expectedTokens) {
    return new Builder(expectedTokens);
  }

  /**
   * Cuts existing text (a corpus question or answer) into tokens by the rule the builder follows:
   * each whitespace-separated chunk is a token with the whitespace before it, a trailing
   * {@code . , ; : ? !} of a longer chunk is a token of its own, and each {@code "\n\n"} is a
   * paragraph token. Inside a chunk, each character of a script written without spaces (Chinese,
   * Japanese kana, Thai, ...) or of the CJK punctuation blocks is a token of its own, with its
   * combining marks: a real tokenizer gives such text about a token a character, where a chunk can
   * be a whole sentence. The text is kept exactly (leading and trailing whitespace included).
   */
  public static TokenText of(String text) {
    int n = text.length();
    int[] starts = new int[Math.max(16, n / 5)];
    int count = 0;
    int pending = 0; // start of the text (whitespace first) not yet given to a token
    int i = 0;
    while (i < n) {
      char c = text.charAt(i);
      if (c == '\n' && i + 1 < n && text.charAt(i + 1) == '\n') {
        starts = grow(starts, count + 1);
        starts[count++] = pending;
        i += 2;
        pending = i;
        continue;
      }
      if (Character.isWhitespace(c)) {
        i++;
        continue;
      }
      int piece = i; // start of the chunk's run not yet given a token
      while (i < n && !Character.isWhitespace(text.charAt(i))) {
        int cp = text.codePointAt(i);
        if (!spaceless(cp)) {
          i += Character.charCount(cp);
          continue;
        }
        starts = grow(starts, count + 2);
        if (i > piece) {
          starts[count++] = pending;
          pending = i;
        }
        starts[count++] = pending;
        i += Character.charCount(cp);
        while (i < n && isMark(text.codePointAt(i))) {
          i += Character.charCount(text.codePointAt(i));
        }
        pending = i;
        piece = i;
      }
      if (i > piece) {
        starts = grow(starts, count + 2);
        starts[count++] = pending;
        if (i - piece > 1 && PUNCTUATION.indexOf(text.charAt(i - 1)) >= 0) {
          starts[count++] = i - 1;
        }
      }
      pending = i;
    }
    if (count == 0 && n > 0) {
      starts = new int[] {0}; // whitespace only: one token that is not a word
      count = 1;
    }
    return new TokenText(text, Arrays.copyOf(starts, count));
  }

  private static final String PUNCTUATION = ".,;:?!";

  private static final Set<Character.UnicodeScript> SPACELESS = EnumSet.of(Character.UnicodeScript.HAN,
      Character.UnicodeScript.HIRAGANA, Character.UnicodeScript.KATAKANA, Character.UnicodeScript.THAI,
      Character.UnicodeScript.LAO, Character.UnicodeScript.KHMER, Character.UnicodeScript.MYANMAR,
      Character.UnicodeScript.TIBETAN);

  /**
   * A character a real tokenizer gives about a token of its own: one of a script written without
   * spaces, or of the CJK punctuation and full-width blocks. This cuts simulated LLM tokens; words
   * (the unit of the 12-word floor) are {@link Words}'.
   */
  private static boolean spaceless(int cp) {
    if (cp < 0x0E00) {
      return false; // Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari ... all use spaces
    }
    Character.UnicodeBlock block = Character.UnicodeBlock.of(cp);
    return SPACELESS.contains(Character.UnicodeScript.of(cp))
        || block == Character.UnicodeBlock.CJK_SYMBOLS_AND_PUNCTUATION
        || block == Character.UnicodeBlock.HALFWIDTH_AND_FULLWIDTH_FORMS;
  }

  private static boolean isMark(int cp) {
    int type = Character.getType(cp);
    return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK;
  }

  private static int[] grow(int[] array, int needed) {
    return needed <= array.length ? array : Arrays.copyOf(array, Math.max(needed, array.length * 2));
  }

  public String text() {
    return text;
  }

  public int tokenCount() {
    return starts.length;
  }

  public int length() {
    return text.length();
  }

  /** Char offset where token {@code i} begins, its leading whitespace included. */
  public int tokenStart(int i) {
    return starts[i];
  }

  /** Char offset just past token {@code i - 1}: the end of the span {@code [.., i)}. */
  public int spanEnd(int i) {
    return i >= starts.length ? text.length() : starts[i];
  }

  /** Char offset of the first non-whitespace char of token {@code i}. */
  public int contentStart(int i) {
    int c = starts[i];
    int end = spanEnd(i + 1);
    while (c < end && Character.isWhitespace(text.charAt(c))) {
      c++;
    }
    return c;
  }

  /** The verbatim text of tokens {@code [from, to)} without the first token's leading whitespace. */
  public String slice(int from, int to) {
    return text.substring(contentStart(from), spanEnd(to));
  }

  /** The text of one token without its leading whitespace. */
  public String token(int i) {
    return slice(i, i + 1);
  }

  /** True when token {@code i} is a word (not punctuation, not a paragraph break). */
  public boolean isWord(int i) {
    int c = contentStart(i);
    if (c >= spanEnd(i + 1)) {
      return false;
    }
    char ch = text.charAt(c);
    return Character.isLetterOrDigit(ch) || ch == '+' || ch == '$';
  }

  @Override
  public String toString() {
    return "TokenText[" + starts.length + " tokens, " + text.length() + " chars]";
  }

  /** Builds a {@link TokenText} token by token; spaces are inserted between words automatically. */
  public static final class Builder {
    private final StringBuilder sb;
    private int[] starts;
    private int count;
    private boolean atLineStart = true;

    private Builder(int expectedTokens) {
      int n = Math.max(16, expectedTokens);
      starts = new int[n];
      sb = new StringBuilder(n * 6);
    }

    private void ensure(int extra) {
      if (count + extra > starts.length) {
        starts = Arrays.copyOf(starts, Math.max(starts.length * 2, count + extra));
      }
    }

    /** A word, number or identifier, preceded by a space unless it opens a line. */
    public Builder word(String w) {
      ensure(1);
      starts[count++] = sb.length();
      if (!atLineStart) {
        sb.append(' ');
      }
      sb.append(w);
      atLineStart = false;
      return this;
    }

    /** A punctuation mark glued to the previous token. */
    public Builder punct(String p) {
      ensure(1);
      starts[count++] = sb.length();
      sb.append(p);
      atLineStart = false;
      return this;
    }

    /** A paragraph break token. */
    public Builder paragraph() {
      if (count == 0) {
        return this;
      }
      ensure(1);
      starts[count++] = sb.length();
      sb.append("\n\n");
      atLineStart = true;
      return this;
    }

    /** Appends all of {@code t}; its first token gets a leading space unless at a line start. */
    public Builder append(TokenText t) {
      if (t.tokenCount() == 0) {
        return this;
      }
      appendRange(t, 0, t.tokenCount());
      return this;
    }

    /**
     * Appends tokens {@code [from, to)} of {@code t} verbatim except that the first token's leading
     * whitespace becomes one space (none at a line start).
     *
     * @return the char offset in this builder where the copied content (after that space) begins
     */
    public int appendRange(TokenText t, int from, int to) {
      if (from >= to) {
        return sb.length();
      }
      ensure(to - from);
      int srcContent = t.contentStart(from);
      starts[count++] = sb.length();
      if (!atLineStart) {
        sb.append(' ');
      }
      int contentAt = sb.length();
      int shift = contentAt - srcContent;
      for (int i = from + 1; i < to; i++) {
        starts[count++] = t.starts[i] + shift;
      }
      int srcEnd = t.spanEnd(to);
      sb.append(t.text, srcContent, srcEnd);
      atLineStart = srcEnd > 0 && t.text.charAt(srcEnd - 1) == '\n';
      return contentAt;
    }

    public int tokenCount() {
      return count;
    }

    public int length() {
      return sb.length();
    }

    public TokenText build() {
      return new TokenText(sb.toString(), Arrays.copyOf(starts, count));
    }
  }
}

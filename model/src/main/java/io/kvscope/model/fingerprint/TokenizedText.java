package io.kvscope.model.fingerprint;

import java.util.Arrays;

/**
 * A text cut into word tokens by {@link WordTokenizer}: for each token its UTF-16 char range in
 * the original string ({@code text.substring(start(i), end(i))} is the token exactly as written)
 * and the 64-bit hash of its case-folded form. Immutable.
 */
public final class TokenizedText {

  private final String text;
  private final int[] starts;
  private final int[] ends;
  private final long[] hashes;

  TokenizedText(String text, int[] starts, int[] ends, long[] hashes) {
    this.text = text;
    this.starts = starts;
    this.ends = ends;
    this.hashes = hashes;
  }

  /** The original text the offsets refer to. */
  public String text() {
    return text;
  }

  /** Number of tokens. */
  public int size() {
    return starts.length;
  }

  /** Char offset (inclusive) of token {@code i} in {@link #text()}. */
  public int start(int i) {
    return starts[i];
  }

  /** Char offset (exclusive) of token {@code i} in {@link #text()}. */
  public int end(int i) {
    return ends[i];
  }

  /** The 64-bit hash of token {@code i}'s folded form. */
  public long hash(int i) {
    return hashes[i];
  }

  /** Token {@code i} as written in the original text. */
  public String original(int i) {
    return text.substring(starts[i], ends[i]);
  }

  /** Token {@code i} in the folded form that is hashed and compared (lower case). */
  public String folded(int i) {
    int chars = ends[i] - starts[i];
    char[] folded = new char[2 * chars];
    return new String(folded, 0, foldedInto(i, chars, folded));
  }

  /**
   * Writes token {@code i}'s folded form, as {@link #folded} has it, into {@code into} from index 0
   * and returns its length in chars; at most its first {@code maxChars} chars are read.
   * {@code into} must hold twice as many chars as are read (a folded code point may take two).
   */
  public int foldedInto(int i, int maxChars, char[] into) {
    int end = Math.min(ends[i], starts[i] + maxChars);
    int length = 0;
    for (int p = starts[i]; p < end; ) {
      char c = text.charAt(p);
      if (c < 0x80) {
        into[length++] = (char) WordTokenizer.fold(c);
        p++;
      } else {
        int cp = text.codePointAt(p);
        length += Character.toChars(WordTokenizer.fold(cp), into, length);
        p += Character.charCount(cp);
      }
    }
    return length;
  }

  /** A copy of all token hashes, e.g. for {@link KGramHasher#hash(long[], int)}. */
  public long[] tokenHashes() {
    return hashes.clone();
  }

  /** Internal view without copying; callers must not modify it. */
  public long[] hashArray() {
    return hashes;
  }

  /**
   * The token range {@code [tokenStart, tokenEnd)} with its char range in the original text (from
   * the start of the first token to the end of the last one).
   */
  public TextRange range(int tokenStart, int tokenEnd) {
    if (tokenStart < 0 || tokenEnd > size() || tokenStart >= tokenEnd) {
      throw new IndexOutOfBoundsException(
          "token range [" + tokenStart + ", " + tokenEnd + ") outside [0, " + size() + ")");
    }
    return new TextRange(tokenStart, tokenEnd, starts[tokenStart], ends[tokenEnd - 1]);
  }

  /** Whether {@code other} is the same words as this text, token for token ({@link #sameToken}). */
  public boolean sameWords(TokenizedText other) {
    if (size() != other.size()) {
      return false;
    }
    for (int i = 0; i < size(); i++) {
      if (!sameToken(this, i, other, i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether token {@code i} of {@code a} and token {@code j} of {@code b} have the same folded
   * form. Compares the actual characters, so a hash collision can never produce a false match.
   */
  public static boolean sameToken(TokenizedText a, int i, TokenizedText b, int j) {
    if (a.hashes[i] != b.hashes[j]) {
      return false;
    }
    String ta = a.text;
    String tb = b.text;
    int p = a.starts[i];
    int q = b.starts[j];
    int pe = a.ends[i];
    int qe = b.ends[j];
    while (p < pe && q < qe) {
      int ca = ta.codePointAt(p);
      int cb = tb.codePointAt(q);
      if (WordTokenizer.fold(ca) != WordTokenizer.fold(cb)) {
        return false;
      }
      p += Character.charCount(ca);
      q += Character.charCount(cb);
    }
    return p == pe && q == qe;
  }

  @Override
  public String toString() {
    // Never the content: texts are sensitive.
    return "TokenizedText[" + size() + " tokens, " + text.length() + " chars]";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TokenizedText t
        && text.equals(t.text)
        && Arrays.equals(starts, t.starts)
        && Arrays.equals(ends, t.ends);
  }

  @Override
  public int hashCode() {
    return text.hashCode() * 31 + starts.length;
  }
}

package io.kvscope.model.fingerprint;

/**
 * A run of tokens in one text: token indexes {@code [tokenStart, tokenEnd)} and the matching
 * UTF-16 char offsets {@code [charStart, charEnd)} of the original string, from the first
 * token's first char to the last token's last char.
 */
public record TextRange(int tokenStart, int tokenEnd, int charStart, int charEnd) {

  public TextRange {
    if (tokenStart < 0 || tokenEnd <= tokenStart) {
      throw new IllegalArgumentException(
          "token range [" + tokenStart + ", " + tokenEnd + ") is empty or negative");
    }
    if (charStart < 0 || charEnd <= charStart) {
      throw new IllegalArgumentException(
          "char range [" + charStart + ", " + charEnd + ") is empty or negative");
    }
  }

  public int tokenCount() {
    return tokenEnd - tokenStart;
  }

  public int charCount() {
    return charEnd - charStart;
  }
}

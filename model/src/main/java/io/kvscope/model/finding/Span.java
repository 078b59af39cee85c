package io.kvscope.model.finding;

import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;

/**
 * A stretch of a recipient's response that matches a stretch of a source's text. Offsets are
 * char offsets (start inclusive, end exclusive) into the stored texts, so views can highlight
 * both sides without keeping any text in the finding.
 *
 * @param sourceField which text of the source matched: {@code prompt_text} or {@code response_text}
 */
public record Span(int responseStart, int responseEnd, String sourceField, int sourceStart, int sourceEnd, int tokens) {

  public Span {
    if (responseStart < 0 || responseEnd < responseStart || sourceStart < 0 || sourceEnd < sourceStart || tokens < 0) {
      throw new IllegalArgumentException("invalid span offsets: " + responseStart + ".." + responseEnd
          + " / " + sourceStart + ".." + sourceEnd);
    }
  }

  /**
   * Whether {@code response}'s words at this span are {@code source}'s words at its end, token for
   * token ({@link TokenizedText#sameWords}), as the verification matched them. False where a text is
   * shorter than the offsets or holds other words there: the offsets are in another logged copy of
   * the reply or of the source's prompt than the one given, and marking them would point at another
   * text's words.
   */
  public boolean wordsAgree(String response, String source) {
    if (response == null || source == null || responseEnd > response.length() || sourceEnd > source.length()) {
      return false;
    }
    return WordTokenizer.tokenize(response.substring(responseStart, responseEnd))
        .sameWords(WordTokenizer.tokenize(source.substring(sourceStart, sourceEnd)));
  }
}

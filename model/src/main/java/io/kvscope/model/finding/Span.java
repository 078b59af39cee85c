package io.kvscope.model.finding;

import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;

/**
 * A stretch of a recipient's response that matches a stretch of a source's text. Offsets are
 * char offsets (start inclusive, end exclusive) into the stored texts, so views can highlight
 * both sides without keeping any text in the finding.
 *
 * <p>Where a request's records disagree on a text, each version is kept: the request's own (the
 * kept text) and its logged copies. A span whose offsets are in a copy names it, so a view reads
 * that copy's text, never the kept one, at the offsets.
 *
 * @param sourceField which text of the source matched: {@code prompt_text} or {@code response_text}
 * @param responseCopy the logged copy of the recipient's reply the response offsets are in, as the
 *     record it was read from ({@code <origin> <file>:<line>}); null for the kept reply
 * @param sourceCopy the logged copy of the source's {@code sourceField} the source offsets are in,
 *     named the same way; null for the source's kept text
 */
public record Span(int responseStart, int responseEnd, String sourceField, int sourceStart, int sourceEnd, int tokens,
    String responseCopy, String sourceCopy) {

  public Span {
    if (responseStart < 0 || responseEnd < responseStart || sourceStart < 0 || sourceEnd < sourceStart || tokens < 0) {
      throw new IllegalArgumentException("invalid span offsets: " + responseStart + ".." + responseEnd
          + " / " + sourceStart + ".." + sourceEnd);
    }
  }

  /** A span between two kept texts. */
  public Span(int responseStart, int responseEnd, String sourceField, int sourceStart, int sourceEnd, int tokens) {
    this(responseStart, responseEnd, sourceField, sourceStart, sourceEnd, tokens, null, null);
  }

  /** This span with its offsets named as in these copies (null: the kept text). */
  public Span inCopies(String response, String source) {
    return new Span(responseStart, responseEnd, sourceField, sourceStart, sourceEnd, tokens, response, source);
  }

  /** True when both ends are in the kept texts. */
  public boolean inKeptTexts() {
    return responseCopy == null && sourceCopy == null;
  }

  /**
   * The logged copies the offsets are in, as words to follow the offsets ({@code " in the reply
   * copy from gateway a.jsonl:7"}); empty when both ends are in the kept texts.
   */
  public String copiesNamed() {
    String in = responseCopy == null ? "" : " in the reply copy from " + responseCopy;
    if (sourceCopy != null) {
      in += (in.isEmpty() ? " " : ", ") + "held in the source's prompt copy from " + sourceCopy;
    }
    return in;
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

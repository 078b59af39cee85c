package io.kvscope.model.finding;

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
}

package io.kvscope.model.fingerprint;

/**
 * One maximal verbatim run shared by a recipient text and a source text: token {@code i} of
 * {@code recipient} equals token {@code i - recipient.tokenStart() + source.tokenStart()} of the
 * source, and the run cannot be extended on either side.
 */
public record SpanMatch(TextRange recipient, TextRange source) {

  public SpanMatch {
    if (recipient.tokenCount() != source.tokenCount()) {
      throw new IllegalArgumentException(
          "recipient and source sides differ in length: "
              + recipient.tokenCount() + " vs " + source.tokenCount());
    }
  }

  public int tokenCount() {
    return recipient.tokenCount();
  }
}

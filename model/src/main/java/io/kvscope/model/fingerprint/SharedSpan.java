package io.kvscope.model.fingerprint;

import java.util.List;

/**
 * A region of the recipient text covered by verbatim matches with one source, after merging
 * matches that overlap or touch in the recipient. {@code parts} are the matches (at least one),
 * ordered by recipient position; usually there is exactly one. Several parts appear when the
 * recipient joins passages that are apart in the source.
 */
public record SharedSpan(TextRange recipient, List<SpanMatch> parts) {

  public SharedSpan {
    parts = List.copyOf(parts);
    if (parts.isEmpty()) {
      throw new IllegalArgumentException("a shared span needs at least one match");
    }
  }

  /** Recipient tokens covered (no double counting across parts). */
  public int tokenCount() {
    return recipient.tokenCount();
  }
}

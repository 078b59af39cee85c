package io.kvscope.analysis.report;

import io.kvscope.index.store.Redaction;
import io.kvscope.index.doc.Schema;

/**
 * Where the human reports get a request's stored text when they need it: to show a leaked span
 * (only with {@code reveal}) or to compute its hash, length and categories, and its trace id for a
 * link to the operator's tracing tool. Backed by the index in
 * practice ({@link IndexTextSource}); findings themselves never carry text.
 */
@FunctionalInterface
public interface TextSource {

  /** The prompt, as stored in the index. */
  String PROMPT = Schema.PROMPT_TEXT;
  /** The response, as stored in the index. */
  String RESPONSE = Schema.RESPONSE_TEXT;

  /** No text anywhere: reports show offsets and token counts only. */
  TextSource NONE = (requestId, field) -> null;

  /**
   * The text of {@code field} ({@link #PROMPT} or {@link #RESPONSE}) of the request with this id
   * (the gateway id, else the engine rid), or null when it is not known.
   */
  String text(String requestId, String field) throws java.io.IOException;

  /**
   * The text of {@code field} of the request with this id as the logged copy {@code copy} gives it
   * (the record it was read from, as a {@link io.kvscope.model.finding.Span} names it), or its kept
   * text where {@code copy} is null; null when not known.
   */
  default String text(String requestId, String field, String copy) throws java.io.IOException {
    return copy == null ? text(requestId, field) : null;
  }

  /**
   * How hashes of this text are made: the case's keyed hash for an index; for text from
   * elsewhere, a key that lives as long as the process.
   */
  default Redaction redaction() {
    return Redaction.ephemeral();
  }

  /**
   * The trace id the logs gave the request with this id (for {@link TraceLinks}), or null when
   * none is known.
   */
  default String traceId(String requestId) throws java.io.IOException {
    return null;
  }
}

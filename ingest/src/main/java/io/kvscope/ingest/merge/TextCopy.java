package io.kvscope.ingest.merge;

/**
 * A copy of one of a request's texts that the kept text does not hold: another reply (or prompt)
 * the records of one request disagree on, or one that goes on past the kept one. The merge keeps
 * one text per field; every copy like this is kept beside it, so that a leak in any copy is found
 * and the disagreement is named.
 *
 * @param field the text's column: {@code prompt_text} or {@code response_text}
 * @param text the copy's text
 * @param where the record it was read from, as {@code <origin> <file>:<line>}
 * @param keptFrom the record the kept text was read from, same form
 * @param outranked whether the copy's record ranks below the kept text's (a trace's reply where the
 *     gateway logged another): its word alone never makes a finding count
 */
public record TextCopy(String field, String text, String where, String keptFrom, boolean outranked) {

  /** True for a copy of the reply: the text the analysis reads as received. */
  public boolean isReply() {
    return field.equals(io.kvscope.ingest.record.CanonicalField.RESPONSE_TEXT.column());
  }
}

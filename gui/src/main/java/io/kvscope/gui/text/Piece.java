package io.kvscope.gui.text;

/**
 * One run of displayed text. {@code start}/{@code end} are offsets into the original text, whatever
 * is displayed, so a masked span still says where it lies.
 *
 * @param span the span a {@link Kind#MARK} (or an elision inside one) belongs to, else -1
 */
public record Piece(Kind kind, String display, int start, int end, int span) {

  public enum Kind {
    /** Revealed text outside any span. */
    TEXT,
    /** A span: revealed text, or its masked placeholder. */
    MARK,
    /** A masked stretch outside any span: only its length. */
    MASK,
    /** A long stretch left out to keep the view small: only its length. */
    ELIDED
  }

  public int length() {
    return end - start;
  }
}

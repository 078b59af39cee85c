package io.kvscope.gui.text;

/** A stretch {@code [start, end)} of a text to highlight, and which span (0-based) it shows. */
public record Mark(int start, int end, int span) {

  public Mark {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("invalid mark " + start + ".." + end);
    }
  }
}

package io.kvscope.gui.text;

import io.kvscope.analysis.report.ContentRedactor;
import io.kvscope.index.store.Redaction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Cuts a text into {@link Piece}s around its marks. Revealed, it shows each mark and
 * {@link Limits#context} characters either side, eliding the rest (prompts can be megabytes);
 * masked, it shows no character of the text: each stretch as its length and the masked shape of its
 * head (words as first letter and stars, digits as {@code #}, identifiers as their category, as the
 * reports mask excerpts: {@link ContentRedactor#mask}), and each mark with its hash (equal on both
 * sides of a verbatim match) and the data categories in it.
 */
public final class TextPieces {

  /**
   * @param context characters of plain text kept next to a mark
   * @param markEnds characters kept at each end of a mark longer than twice this
   * @param head characters shown of a text without marks
   * @param maskedExcerpt characters of masked shape shown for a stretch that is not revealed
   */
  public record Limits(int context, int markEnds, int head, int maskedExcerpt) {
    public static final Limits DEFAULT = new Limits(400, 1500, 6000, 60);
  }

  private TextPieces() {}

  /** @param redaction how a masked mark is hashed (the case's keyed hash, from the index) */
  public static List<Piece> render(String text, List<Mark> marks, boolean revealed, Limits limits, Redaction redaction) {
    if (text == null) {
      return List.of();
    }
    List<Mark> ordered = clip(marks, text.length());
    List<Piece> pieces = new ArrayList<>();
    int at = 0;
    for (int i = 0; i < ordered.size(); i++) {
      Mark mark = ordered.get(i);
      plain(text, at, mark.start(), i == 0, false, revealed, limits, pieces);
      marked(text, mark, revealed, limits, redaction, pieces);
      at = mark.end();
    }
    plain(text, at, text.length(), ordered.isEmpty(), true, revealed, limits, pieces);
    return pieces;
  }

  /** Sorted, inside the text, and not overlapping (a later mark starts where an earlier one ends). */
  private static List<Mark> clip(List<Mark> marks, int length) {
    List<Mark> sorted = new ArrayList<>(marks);
    sorted.sort(Comparator.comparingInt(Mark::start).thenComparingInt(Mark::end));
    List<Mark> out = new ArrayList<>();
    int floor = 0;
    for (Mark m : sorted) {
      int start = Math.min(Math.max(m.start(), floor), length);
      int end = Math.min(m.end(), length);
      if (end > start) {
        out.add(new Mark(start, end, m.span()));
        floor = end;
      }
    }
    return out;
  }

  private static void plain(String text, int from, int to, boolean first, boolean last, boolean revealed,
      Limits limits, List<Piece> out) {
    if (to <= from) {
      return;
    }
    if (!revealed) {
      out.add(new Piece(Piece.Kind.MASK, placeholder(String.format("%,d chars", to - from))
          .replace("] ", ": " + shape(text, from, to, limits.maskedExcerpt()) + "] "), from, to, -1));
      return;
    }
    if (first && last) {
      keep(text, from, Math.min(to, from + limits.head()), to, Piece.Kind.TEXT, -1, out);
      return;
    }
    // Keep context after the previous mark (unless this is the start) and before the next (unless the end).
    int headEnd = first ? from : Math.min(to, from + limits.context());
    int tailStart = last ? to : Math.max(headEnd, to - limits.context());
    if (headEnd > from) {
      out.add(text(text, from, headEnd, Piece.Kind.TEXT, -1));
    }
    if (tailStart > headEnd) {
      out.add(elided(headEnd, tailStart, -1));
    }
    if (to > tailStart) {
      out.add(text(text, tailStart, to, Piece.Kind.TEXT, -1));
    }
  }

  private static void marked(String text, Mark mark, boolean revealed, Limits limits, Redaction redaction, List<Piece> out) {
    if (!revealed) {
      String span = text.substring(mark.start(), mark.end());
      List<String> categories = ContentRedactor.categories(span);
      // No padding around a masked span, so its highlight covers the placeholder and nothing else.
      String label = String.format("[span %d \u00B7 %,d chars \u00B7 hmac %s%s]", mark.span() + 1, span.length(),
          redaction.hash(span), categories.isEmpty() ? "" : " \u00B7 " + String.join(", ", categories));
      out.add(new Piece(Piece.Kind.MARK, label.replace(' ', '\u00A0') + " " + shape(text, mark.start(), mark.end(),
          limits.maskedExcerpt()), mark.start(), mark.end(), mark.span()));
      return;
    }
    if (mark.end() - mark.start() <= 2 * limits.markEnds()) {
      out.add(text(text, mark.start(), mark.end(), Piece.Kind.MARK, mark.span()));
      return;
    }
    int headEnd = mark.start() + limits.markEnds();
    int tailStart = mark.end() - limits.markEnds();
    out.add(text(text, mark.start(), headEnd, Piece.Kind.MARK, mark.span()));
    out.add(elided(headEnd, tailStart, mark.span()));
    out.add(text(text, tailStart, mark.end(), Piece.Kind.MARK, mark.span()));
  }

  /** The masked shape of the head of {@code [from, to)}: no character of the text itself. */
  private static String shape(String text, int from, int to, int chars) {
    // ContentRedactor reads at most four times the excerpt; a megabyte stretch is not copied whole.
    int end = Math.min(to, from + chars * 4);
    String masked = ContentRedactor.mask(text.substring(from, end), chars);
    return end < to && !masked.endsWith("\u2026") ? masked + "\u2026" : masked;
  }

  /** Text from {@code from} to {@code shownEnd}, then an elision to {@code end} if anything is left. */
  private static void keep(String text, int from, int shownEnd, int end, Piece.Kind kind, int span, List<Piece> out) {
    if (shownEnd > from) {
      out.add(text(text, from, shownEnd, kind, span));
    }
    if (end > shownEnd) {
      out.add(elided(shownEnd, end, span));
    }
  }

  private static Piece text(String text, int from, int to, Piece.Kind kind, int span) {
    return new Piece(kind, text.substring(from, to), from, to, span);
  }

  private static Piece elided(int from, int to, int span) {
    return new Piece(Piece.Kind.ELIDED, placeholder(String.format("\u2026 %,d chars \u2026", to - from)), from, to, span);
  }

  /** {@code " [what] "}, kept on one line: spaces inside are non-breaking so a placeholder wraps whole. */
  private static String placeholder(String what) {
    return " [" + what.replace(' ', '\u00A0') + "] ";
  }
}

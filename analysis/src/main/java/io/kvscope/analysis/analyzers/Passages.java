package io.kvscope.analysis.analyzers;

import io.kvscope.model.fingerprint.SpanMatch;
import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.TokenizedText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The passages of a response: the maximal runs it shares with the sources verified against it.
 * Stale pages are copied as runs, so a run lying inside a longer run shared with another source
 * came with the longer one; whoever held the longer run word for word is a candidate origin of it,
 * and whoever held only a part is not.
 */
final class Passages {

  private Passages() {}

  /** A verified match of the response with one source's prompt or reply. */
  record Verified(int doc, boolean inReply, SpanMatch match) {}

  /** A maximal run and the verified matches that lie exactly on it. */
  record Passage(TextRange range, List<Verified> exact) {}

  /**
   * The maximal runs among {@code verified}'s recipient ranges: a range inside a longer one is
   * dropped, equal ranges become one passage. In response order.
   */
  static List<Passage> of(List<Verified> verified) {
    Map<Long, List<Verified>> byRange = new LinkedHashMap<>();
    for (Verified v : verified) {
      TextRange r = v.match().recipient();
      byRange.computeIfAbsent(((long) r.tokenStart() << 32) | r.tokenEnd(), k -> new ArrayList<>()).add(v);
    }
    List<TextRange> ranges = new ArrayList<>();
    byRange.values().forEach(vs -> ranges.add(vs.getFirst().match().recipient()));
    List<Passage> passages = new ArrayList<>();
    for (List<Verified> group : byRange.values()) {
      TextRange r = group.getFirst().match().recipient();
      boolean inside = ranges.stream().anyMatch(o -> o.tokenStart() <= r.tokenStart() && o.tokenEnd() >= r.tokenEnd()
          && o.tokenCount() > r.tokenCount());
      if (!inside) {
        passages.add(new Passage(r, List.copyOf(group)));
      }
    }
    passages.sort(Comparator.comparingInt((Passage p) -> p.range().tokenStart()).thenComparingInt(p -> p.range().tokenEnd()));
    return passages;
  }

  /** Whether {@code ranges} cover at least four fifths of {@code range}'s words. */
  static boolean coveredBy(TextRange range, List<TextRange> ranges) {
    if (ranges == null || ranges.isEmpty()) {
      return false;
    }
    boolean[] covered = new boolean[range.tokenCount()];
    for (TextRange r : ranges) {
      for (int i = Math.max(r.tokenStart(), range.tokenStart()); i < Math.min(r.tokenEnd(), range.tokenEnd()); i++) {
        covered[i - range.tokenStart()] = true;
      }
    }
    int n = 0;
    for (boolean c : covered) {
      n += c ? 1 : 0;
    }
    return 5 * n >= 4 * covered.length;
  }

  /** The range's text for a phrase query, without a word it cuts at either end (the 7 of 10.7). */
  static String textOf(TokenizedText response, TextRange range) {
    String text = response.text();
    int start = range.charStart();
    int end = range.charEnd();
    while (start < end && insideWord(text, start - 1, -1)) {
      start++;
    }
    while (end > start && insideWord(text, end, 1)) {
      end--;
    }
    return text.substring(start, end);
  }

  /**
   * Whether the char at {@code i}, just outside a span's edge, continues the edge word for the
   * search analyzer: a letter or digit, or a mark between word chars (the point of 10.7). Next to
   * a Chinese character or a hiragana there is no word to cut: the analyzer makes each a word.
   */
  private static boolean insideWord(String text, int i, int outward) {
    int inside = i - outward;
    if (i < 0 || i >= text.length() || inside < 0 || inside >= text.length()) {
      return false;
    }
    char c = text.charAt(i);
    if (aWordEach(c) || aWordEach(text.charAt(inside))) {
      return false;
    }
    int beyond = i + outward;
    return Character.isLetterOrDigit(c) || !Character.isWhitespace(c) && beyond >= 0 && beyond < text.length()
        && Character.isLetterOrDigit(text.charAt(beyond));
  }

  /** Chars Lucene's StandardTokenizer makes a token each (its IDEOGRAPHIC and HIRAGANA types). */
  private static boolean aWordEach(char c) {
    if (c < 0x3040) {
      return false;
    }
    Character.UnicodeScript script = Character.UnicodeScript.of(c);
    return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA;
  }
}

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

  /**
   * The range's words as written: the index holds the same words ({@code WordTokens}), so the
   * phrase query of this text is the range's words, none cut at either end.
   */
  static String textOf(TokenizedText response, TextRange range) {
    return response.text().substring(range.charStart(), range.charEnd());
  }
}

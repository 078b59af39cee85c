package io.kvscope.model.identifiers;

import java.util.function.Consumer;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pattern tried only near cheap anchors, with exactly the matches of a plain
 * {@link Matcher#find()} loop over the whole text.
 *
 * <p>A plain find loop tries the pattern at every char of a multi-megabyte prompt, and most
 * patterns cannot rule a position out from its first char; that made identifier extraction the
 * bulk of ingest. Here every match of the pattern must contain an anchor (a char test such as
 * "an {@code @}") at most {@code lead} chars after its start, and no match is longer than
 * {@code maxLength}. So the pattern is only tried at the starts from {@code lead} chars before
 * each anchor up to it, each start once, in a region just long enough for any match from there.
 * Bounds are transparent, so look-behind, look-ahead and {@code \b} see the text outside the
 * region, and the match at a start is the one the plain loop finds there. Matches do not overlap
 * and come in text order, as with the plain loop. The anchors themselves are found by the
 * caller ({@link AnchorScan}), for all patterns in one pass over the text.
 */
final class AnchoredPattern {

  private final Pattern pattern;
  private final int lead;
  private final int maxLength;

  /**
   * @param lead every match has an anchor within this many chars after its start
   * @param maxLength no match is longer (the pattern's quantifiers are all bounded)
   */
  AnchoredPattern(Pattern pattern, int lead, int maxLength) {
    this.pattern = pattern;
    this.lead = lead;
    this.maxLength = maxLength;
  }

  Pattern pattern() {
    return pattern;
  }

  /** Calls {@code onMatch} with every match, in text order, given all the anchors of {@code text}. */
  void forEachMatch(String text, AnchorScan.Positions anchors, Consumer<MatchResult> onMatch) {
    if (anchors.size() == 0) {
      return;
    }
    int n = text.length();
    Matcher m = pattern.matcher(text).useTransparentBounds(true).useAnchoringBounds(false);
    int cursor = 0; // no match starts before this
    int tried = 0; // every start before this was tried and failed (or lies inside a match)
    for (int next = 0; next < anchors.size(); next++) {
      int anchor = anchors.get(next);
      if (anchor < cursor) {
        continue; // inside the last match
      }
      // A match starting before anchor - lead would need an earlier anchor at or after cursor.
      // Each start is tried once, anchored there, in a region long enough for any match from it,
      // so a failure is final and the work stays that of one plain find loop.
      int end = (int) Math.min(n, (long) anchor + maxLength);
      boolean matched = false;
      for (int start = Math.max(Math.max(cursor, tried), anchor - lead); start <= anchor && !matched; start++) {
        m.region(start, end);
        matched = m.lookingAt();
        tried = start + 1;
      }
      if (matched) {
        onMatch.accept(m.toMatchResult());
        cursor = Math.max(m.end(), m.start() + 1);
      } else {
        cursor = anchor + 1;
      }
    }
  }
}

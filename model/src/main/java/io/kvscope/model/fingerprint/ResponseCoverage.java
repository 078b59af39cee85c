package io.kvscope.model.fingerprint;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How much of one response is covered by shared spans from several sources, without double
 * counting: a response may carry fragments of several earlier requests (several stale KV pages),
 * and two sources may explain the same tokens.
 *
 * @param coveredTokens response tokens covered by at least one source
 * @param covered the covered regions of the response, merged, in order
 * @param tokensBySource tokens each source covers (its own spans merged)
 * @param exclusiveTokensBySource tokens only that source covers
 * @param <K> how the caller names a source (a request id, a doc id, ...)
 */
public record ResponseCoverage<K>(
    int coveredTokens,
    List<TextRange> covered,
    Map<K, Integer> tokensBySource,
    Map<K, Integer> exclusiveTokensBySource) {

  public ResponseCoverage {
    covered = List.copyOf(covered);
    tokensBySource = Collections.unmodifiableMap(new LinkedHashMap<>(tokensBySource));
    exclusiveTokensBySource =
        Collections.unmodifiableMap(new LinkedHashMap<>(exclusiveTokensBySource));
  }

  /** Tokens covered by two or more sources. */
  public int tokensCoveredByMoreThanOneSource() {
    int exclusive = 0;
    for (int n : exclusiveTokensBySource.values()) {
      exclusive += n;
    }
    return coveredTokens - exclusive;
  }

  /**
   * Coverage of one response by the spans found against each source. All spans must come from
   * verifying the same response (their recipient sides index the same tokenization).
   */
  public static <K> ResponseCoverage<K> of(Map<K, List<SharedSpan>> spansBySource) {
    List<K> sources = new ArrayList<>(spansBySource.keySet());
    // Boundary events of each source's own merged ranges: {position, +1/-1, source index}.
    List<int[]> events = new ArrayList<>();
    List<TextRange> all = new ArrayList<>();
    Map<K, Integer> bySource = new LinkedHashMap<>();
    for (int s = 0; s < sources.size(); s++) {
      List<TextRange> ranges = new ArrayList<>();
      for (SharedSpan span : spansBySource.get(sources.get(s))) {
        ranges.add(span.recipient());
      }
      List<TextRange> merged = mergeRanges(ranges);
      int tokens = 0;
      for (TextRange r : merged) {
        tokens += r.tokenCount();
        events.add(new int[] {r.tokenStart(), +1, s});
        events.add(new int[] {r.tokenEnd(), -1, s});
      }
      all.addAll(merged);
      bySource.put(sources.get(s), tokens);
    }
    List<TextRange> covered = mergeRanges(all);
    int coveredTokens = 0;
    for (TextRange r : covered) {
      coveredTokens += r.tokenCount();
    }

    // Sweep: where exactly one source is active, the sum of active indexes names it.
    events.sort(Comparator.<int[]>comparingInt(e -> e[0]).thenComparingInt(e -> e[1]));
    int[] exclusive = new int[sources.size()];
    int active = 0;
    long activeIndexSum = 0;
    int previous = 0;
    for (int[] e : events) {
      if (active == 1 && e[0] > previous) {
        exclusive[(int) activeIndexSum] += e[0] - previous;
      }
      previous = e[0];
      active += e[1];
      activeIndexSum += (long) e[1] * e[2];
    }
    Map<K, Integer> exclusiveBySource = new LinkedHashMap<>();
    for (int s = 0; s < sources.size(); s++) {
      exclusiveBySource.put(sources.get(s), exclusive[s]);
    }
    return new ResponseCoverage<>(coveredTokens, covered, bySource, exclusiveBySource);
  }

  private static List<TextRange> mergeRanges(List<TextRange> ranges) {
    List<TextRange> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingInt(TextRange::tokenStart));
    List<TextRange> merged = new ArrayList<>();
    for (TextRange r : sorted) {
      int lastIndex = merged.size() - 1;
      TextRange last = lastIndex < 0 ? null : merged.get(lastIndex);
      if (last != null && r.tokenStart() <= last.tokenEnd()) {
        if (r.tokenEnd() > last.tokenEnd()) {
          merged.set(
              lastIndex,
              new TextRange(last.tokenStart(), r.tokenEnd(), last.charStart(), r.charEnd()));
        }
      } else {
        merged.add(r);
      }
    }
    return merged;
  }
}

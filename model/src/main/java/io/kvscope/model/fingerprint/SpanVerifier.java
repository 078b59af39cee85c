package io.kvscope.model.fingerprint;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Exact verification of a candidate pair: finds every maximal verbatim run of at least T tokens
 * that a recipient text shares with a source text, and removes what the recipient's own prompt
 * explains.
 *
 * <p>Seeds are all shared k-grams (not just the winnowed ones), so nothing the fingerprints
 * guaranteed can be lost here. Each seed is checked token by token on the real characters (hash
 * collisions cannot create a match) and extended left and right until the texts differ. Seeds on
 * the same diagonal (same offset between the two texts) inside an already extended run are
 * skipped, so each maximal run is extended once; so are seeds whose k-gram lies inside recipient
 * text an accepted match already covers (a run that starts there but reaches further is still
 * seeded by its last k-gram and extended back left). A k-gram that occurs more than
 * {@code maxSeedOccurrences} times in the source seeds only from its first occurrences; this bounds
 * the work on degenerate repetitive text (an LLM repeating one phrase) and never produces a wrong
 * span, only possibly fewer source locations for a highly repeated passage.
 */
public final class SpanVerifier {

  /** Default bound on source occurrences tried per k-gram. */
  public static final int DEFAULT_MAX_SEED_OCCURRENCES = 64;

  private static final Comparator<SpanMatch> BY_RECIPIENT_POSITION =
      Comparator.<SpanMatch>comparingInt(m -> m.recipient().tokenStart())
          .thenComparing(Comparator.<SpanMatch>comparingInt(SpanMatch::tokenCount).reversed())
          .thenComparingInt(m -> m.source().tokenStart());

  private final FingerprintConfig config;
  private final int maxSeedOccurrences;

  public SpanVerifier(FingerprintConfig config) {
    this(config, DEFAULT_MAX_SEED_OCCURRENCES);
  }

  public SpanVerifier(FingerprintConfig config, int maxSeedOccurrences) {
    this.config = Objects.requireNonNull(config, "config");
    if (maxSeedOccurrences < 1) {
      throw new IllegalArgumentException(
          "maxSeedOccurrences must be at least 1, was " + maxSeedOccurrences);
    }
    this.maxSeedOccurrences = maxSeedOccurrences;
  }

  public FingerprintConfig config() {
    return config;
  }

  /** Shared spans of at least T tokens, merged per recipient region, in recipient order. */
  public List<SharedSpan> verify(TokenizedText recipient, TokenizedText source) {
    return verify(recipient, source, config.threshold());
  }

  /**
   * Shared spans of at least {@code minTokens} tokens ({@code minTokens >= k}), merged per
   * recipient region, in recipient order.
   */
  public List<SharedSpan> verify(TokenizedText recipient, TokenizedText source, int minTokens) {
    return merge(maximalMatches(recipient, source, minTokens));
  }

  /**
   * The spans of a response that a source explains and its own prompt does not: verifies
   * {@code response} against {@code source} and against {@code ownPrompt} (both at T), and keeps
   * what is left of the former after removing the latter, where at least T tokens remain.
   */
  public List<SharedSpan> unexplainedSpans(
      TokenizedText response, TokenizedText source, TokenizedText ownPrompt) {
    List<SharedSpan> shared = verify(response, source);
    if (shared.isEmpty() || ownPrompt == null) {
      return shared;
    }
    return subtract(response, source, shared, verify(response, ownPrompt));
  }

  /**
   * Removes from {@code spans} (recipient vs {@code source}) every recipient token covered by
   * {@code explained} (recipient vs some other text, typically its own prompt). Each match is cut
   * around the explained tokens; a remaining piece is kept, with its source side shifted
   * accordingly, only if it still has at least T tokens.
   */
  public List<SharedSpan> subtract(
      TokenizedText recipient,
      TokenizedText source,
      List<SharedSpan> spans,
      List<SharedSpan> explained) {
    List<int[]> cuts = union(explained);
    int minTokens = config.threshold();
    List<SpanMatch> pieces = new ArrayList<>();
    for (SharedSpan span : spans) {
      for (SpanMatch part : span.parts()) {
        int start = part.recipient().tokenStart();
        int end = part.recipient().tokenEnd();
        int shift = part.source().tokenStart() - start;
        int cursor = start;
        for (int[] cut : cuts) {
          if (cut[1] <= cursor || cut[0] >= end) {
            continue;
          }
          addPiece(pieces, recipient, source, cursor, cut[0], shift, minTokens);
          cursor = Math.max(cursor, cut[1]);
        }
        addPiece(pieces, recipient, source, cursor, end, shift, minTokens);
      }
    }
    return merge(pieces);
  }

  private static void addPiece(
      List<SpanMatch> pieces,
      TokenizedText recipient,
      TokenizedText source,
      int start,
      int end,
      int shift,
      int minTokens) {
    if (end - start >= minTokens) {
      pieces.add(new SpanMatch(recipient.range(start, end), source.range(start + shift, end + shift)));
    }
  }

  /** Sorted, merged {@code [start, end)} token intervals of the spans' recipient sides. */
  private static List<int[]> union(List<SharedSpan> spans) {
    List<int[]> intervals = new ArrayList<>();
    for (SharedSpan s : spans) {
      intervals.add(new int[] {s.recipient().tokenStart(), s.recipient().tokenEnd()});
    }
    intervals.sort(Comparator.comparingInt(a -> a[0]));
    List<int[]> merged = new ArrayList<>();
    for (int[] iv : intervals) {
      int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && iv[0] <= last[1]) {
        last[1] = Math.max(last[1], iv[1]);
      } else {
        merged.add(iv.clone());
      }
    }
    return merged;
  }

  /** All maximal shared runs of at least {@code minTokens} tokens, unordered. */
  List<SpanMatch> maximalMatches(TokenizedText recipient, TokenizedText source, int minTokens) {
    int k = config.k();
    if (minTokens < k) {
      throw new IllegalArgumentException(
          "minTokens must be at least k (" + k + "), was " + minTokens);
    }
    int rn = recipient.size();
    int sn = source.size();
    if (rn < minTokens || sn < minTokens) {
      return List.of();
    }
    long[] recipientGrams = KGramHasher.hash(recipient.hashArray(), k);
    long[] sourceGrams = KGramHasher.hash(source.hashArray(), k);

    // Occurrence chains, in increasing position, of the source k-grams the recipient also has: a
    // source is often a prompt of a million tokens against a reply of a thousand, and only those
    // k-grams can seed a match, so a small table over the recipient filters the source's.
    LongIntHashMap inRecipient = new LongIntHashMap(recipientGrams.length); // a set: values unused
    for (long gram : recipientGrams) {
      inRecipient.put(gram, 0);
    }
    LongIntHashMap firstOccurrence = new LongIntHashMap(Math.min(sourceGrams.length, recipientGrams.length));
    int[] nextOccurrence = new int[sourceGrams.length];
    for (int j = sourceGrams.length - 1; j >= 0; j--) {
      if (inRecipient.containsKey(sourceGrams[j])) {
        nextOccurrence[j] = firstOccurrence.get(sourceGrams[j], -1);
        firstOccurrence.put(sourceGrams[j], j);
      }
    }

    // Per diagonal (recipient index minus source index): end of the last run extended on it.
    LongIntHashMap extendedUntil = new LongIntHashMap(64);
    // End of the recipient region already covered by accepted matches (all start at or before i).
    int coveredUntil = 0;
    List<SpanMatch> matches = new ArrayList<>();
    for (int i = 0; i < recipientGrams.length; i++) {
      int tried = 0;
      for (int j = firstOccurrence.get(recipientGrams[i], -1);
          j >= 0 && tried < maxSeedOccurrences;
          j = nextOccurrence[j], tried++) {
        if (i + k <= coveredUntil) {
          break; // this k-gram is already inside a match; a run reaching further is seeded later
        }
        long diagonal = (long) i - j;
        if (extendedUntil.get(diagonal, -1) > i) {
          continue;
        }
        int left = 0;
        while (i - left > 0
            && j - left > 0
            && TokenizedText.sameToken(recipient, i - left - 1, source, j - left - 1)) {
          left++;
        }
        int right = 0;
        while (i + right < rn
            && j + right < sn
            && TokenizedText.sameToken(recipient, i + right, source, j + right)) {
          right++;
        }
        extendedUntil.put(diagonal, i + Math.max(right, 1));
        if (left + right >= minTokens) {
          coveredUntil = Math.max(coveredUntil, i + right);
          matches.add(
              new SpanMatch(
                  recipient.range(i - left, i + right), source.range(j - left, j + right)));
        }
      }
    }
    return matches;
  }

  /**
   * Drops matches whose recipient side lies inside another one (a passage repeated in the source
   * adds no coverage), then groups matches that overlap or touch in the recipient.
   */
  static List<SharedSpan> merge(List<SpanMatch> matches) {
    if (matches.isEmpty()) {
      return List.of();
    }
    List<SpanMatch> sorted = new ArrayList<>(matches);
    sorted.sort(BY_RECIPIENT_POSITION);
    List<SharedSpan> spans = new ArrayList<>();
    List<SpanMatch> group = new ArrayList<>();
    int groupEnd = -1;
    for (SpanMatch m : sorted) {
      int start = m.recipient().tokenStart();
      int end = m.recipient().tokenEnd();
      if (!group.isEmpty() && end <= groupEnd) {
        continue; // contained in what the group already covers
      }
      if (!group.isEmpty() && start > groupEnd) {
        spans.add(span(group));
        group = new ArrayList<>();
      }
      group.add(m);
      groupEnd = Math.max(groupEnd, end);
    }
    spans.add(span(group));
    return List.copyOf(spans);
  }

  private static SharedSpan span(List<SpanMatch> group) {
    TextRange first = group.get(0).recipient();
    TextRange last = first;
    for (SpanMatch m : group) {
      if (m.recipient().tokenEnd() > last.tokenEnd()) {
        last = m.recipient();
      }
    }
    return new SharedSpan(
        new TextRange(first.tokenStart(), last.tokenEnd(), first.charStart(), last.charEnd()),
        group);
  }
}

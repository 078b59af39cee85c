package io.kvscope.model.evidence;

import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.TokenizedText;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The focused pass's choices for a response decoded over foreign KV, apart from how an engine finds
 * who shares a fingerprint or holds a window of words: which sharing requests are verified, which
 * windows of the response are looked up word for word, which holders of a window are kept, and
 * which of them still need verifying. Requests are named by their place in request order (start,
 * then request id), so every choice is the same whatever order the evidence was read in.
 */
public final class FocusedLookup {

  /** Candidate sources verified per focused recipient from its fingerprints, most shared first. */
  public static final int MAX_CANDIDATES = 256;

  /**
   * Short runs are found by looking up windows of this many words every {@link #WINDOW_STRIDE}
   * words: every run of {@value PassageRules#MIN_WORDS} words holds one.
   */
  public static final int WINDOW_WORDS = 10;
  public static final int WINDOW_STRIDE = 2;

  /**
   * Requests within reach taken per window, the latest first (a common phrase is held by many; the
   * longest runs win anyway).
   */
  public static final int MAX_WINDOW_HOLDERS = 64;

  private FocusedLookup() {}

  /**
   * A request to verify against the recipient, by its place in request order, with the
   * fingerprints (or windows) it shares on each side.
   */
  public record Sharing(int request, int inPrompt, int inReply) {

    int total() {
      return inPrompt + inReply;
    }
  }

  /** A request that held a window word for word, by its place in request order. */
  public record Held(int request, boolean inReply) {}

  /**
   * The {@value #MAX_CANDIDATES} requests sharing the most fingerprints, the earlier request on a
   * tie; listed in request order.
   */
  public static List<Sharing> best(Collection<Sharing> sharing) {
    return sharing.stream()
        .sorted(Comparator.comparingInt((Sharing s) -> -s.total()).thenComparingInt(Sharing::request))
        .limit(MAX_CANDIDATES)
        .sorted(Comparator.comparingInt(Sharing::request))
        .toList();
  }

  /**
   * The windows of {@code words} to look up: {@value #WINDOW_WORDS} words every
   * {@value #WINDOW_STRIDE}, except those inside a run already verified ({@code covered}: token
   * ranges {@code [from, to)}), where the verifier has found the longer run.
   */
  public static List<TextRange> windows(TokenizedText words, List<int[]> covered) {
    List<TextRange> windows = new ArrayList<>();
    for (int start = 0; start + WINDOW_WORDS <= words.size(); start += WINDOW_STRIDE) {
      int from = start;
      if (covered.stream().noneMatch(c -> c[0] <= from && from + WINDOW_WORDS <= c[1])) {
        windows.add(words.range(start, start + WINDOW_WORDS));
      }
    }
    return windows;
  }

  /**
   * The {@value #MAX_WINDOW_HOLDERS} latest of a window's holders within reach: their pages were
   * released last, so they are the likeliest still in the pool. Prompt before reply for one request.
   */
  public static List<Held> latest(Collection<Held> held) {
    return held.stream()
        .sorted(Comparator.comparingInt((Held h) -> -h.request()).thenComparing(Held::inReply))
        .limit(MAX_WINDOW_HOLDERS)
        .toList();
  }

  /**
   * The window holders still to verify: each request and side not already verified from
   * fingerprints ({@code verified}), once each (a side counts 1), in request order.
   */
  public static List<Sharing> beyond(Collection<Sharing> verified, Collection<Held> held) {
    Map<Integer, Sharing> before = new TreeMap<>();
    verified.forEach(s -> before.put(s.request(), s));
    Map<Integer, int[]> more = new TreeMap<>();
    for (Held h : held) {
      Sharing known = before.get(h.request());
      if (known == null || (h.inReply() ? known.inReply() : known.inPrompt()) == 0) {
        more.computeIfAbsent(h.request(), r -> new int[2])[h.inReply() ? 1 : 0] = 1;
      }
    }
    return more.entrySet().stream().map(e -> new Sharing(e.getKey(), e.getValue()[0], e.getValue()[1])).toList();
  }
}

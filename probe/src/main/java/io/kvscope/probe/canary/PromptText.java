package io.kvscope.probe.canary;

import io.kvscope.model.identifiers.CanaryMarker;
import java.util.SplittableRandom;

/**
 * A probe prompt: synthetic pseudo-words (random syllables, never user data and never a real
 * document) with the request's own markers spread through it, so every KV page the prompt fills
 * holds a marker, and an instruction to repeat every marker in view: a response decoded over
 * another request's stale pages then tends to say that request's markers.
 */
final class PromptText {

  private static final String[] CONSONANTS = {"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z"};
  private static final String[] VOWELS = {"a", "e", "i", "o", "u"};

  private PromptText() {}

  /** The prompt text and how many markers it holds. */
  record Built(String text, int markers, String firstMarker) {}

  /**
   * @param chars about how long the text should be
   * @param markerEvery characters between markers
   */
  static Built build(String requestId, String runTag, int chars, int markerEvery, MarkerLedger ledger, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    String head = "kvscope probe run " + runTag + ", request " + requestId + ". The text below is synthetic test data. "
        + "Repeat every code that starts with " + CanaryMarker.PREFIX + " that you can see, exactly, one per line.\n";
    String tail = "\nList every " + CanaryMarker.PREFIX + " code you can see.";
    StringBuilder b = new StringBuilder(Math.max(chars, head.length() + tail.length()) + 64);
    b.append(head);
    int markers = 0;
    String first = null;
    int sinceMarker = markerEvery; // a marker right after the head
    int bodyEnd = Math.max(b.length(), chars - tail.length());
    while (b.length() < bodyEnd) {
      if (sinceMarker >= markerEvery) {
        String marker = ledger.issue(requestId);
        first = first == null ? marker : first;
        b.append(marker).append(' ');
        markers++;
        sinceMarker = 0;
      }
      int before = b.length();
      word(random, b);
      b.append(random.nextInt(12) == 0 ? ". " : " ");
      sinceMarker += b.length() - before;
    }
    b.append(tail);
    return new Built(b.toString(), markers, first);
  }

  private static void word(SplittableRandom random, StringBuilder b) {
    int syllables = 1 + random.nextInt(3);
    for (int i = 0; i < syllables; i++) {
      b.append(CONSONANTS[random.nextInt(CONSONANTS.length)]).append(VOWELS[random.nextInt(VOWELS.length)]);
    }
  }
}

package io.kvscope.model.evidence;

import io.kvscope.ingest.json.MessageText;
import io.kvscope.model.fingerprint.WordTokenizer;

/**
 * Whether two prompts end with the same question. A prompt as logged is its messages joined by
 * line breaks (system prompt, conversation history, the new question last), and tenants ask the
 * same popular question under different system prompts, often in a dozen words; so two prompts
 * ask the same question when their common ending starts at a line break in both (or at the start
 * of either) and holds at least {@link #MIN_WORDS} words (as the fingerprints count them: a
 * Chinese character is a word) or the whole of one prompt.
 */
public final class SameQuestion {

  /** A shared last line shorter than this ("Thanks!") is not a question. */
  public static final int MIN_WORDS = 3;

  private SameQuestion() {}

  public static boolean asked(String a, String b) {
    if (a == null || b == null || a.isBlank() || b.isBlank()) {
      return false;
    }
    String x = a.stripTrailing();
    String y = b.stripTrailing();
    int common = 0;
    while (common < x.length() && common < y.length()
        && x.charAt(x.length() - 1 - common) == y.charAt(y.length() - 1 - common)) {
      common++;
    }
    // Back to where a message starts in both: after a line break, or at a text's start.
    int length = common;
    while (length > 0 && !(startsLine(x, x.length() - length) && startsLine(y, y.length() - length))) {
      length--;
    }
    if (length == 0) {
      return false;
    }
    String ending = x.substring(x.length() - length);
    return length == x.length() || length == y.length() || WordTokenizer.tokenize(ending).size() >= MIN_WORDS;
  }

  private static boolean startsLine(String text, int at) {
    return at == 0 || text.charAt(at - 1) == MessageText.SEPARATOR;
  }
}

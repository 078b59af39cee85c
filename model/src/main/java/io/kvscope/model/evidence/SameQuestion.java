package io.kvscope.model.evidence;

import io.kvscope.ingest.json.MessageText;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;

/**
 * Whether two prompts end with the same question. A prompt as logged is its messages joined by
 * line breaks (system prompt, conversation history, the new question last), and tenants ask the
 * same popular question under different system prompts, after different pasted text, or in
 * slightly different words; a model answers them alike. Two prompts ask the same question when
 * (words as the fingerprints count them: a Chinese character is a word):
 *
 * <ul>
 *   <li>their common ending starts at a line break in both (or at the start of either) and holds
 *       at least {@link #MIN_WORDS} words or the whole of one prompt: the same last message;
 *   <li>one's last line, of at least {@link #MIN_WORDS_AFTER_TEXT} words, ends the other word for
 *       word: a question asked bare by one and after pasted text ("...\n\nQuestion: ...") by the other;
 *   <li>their last lines, of at least {@link #MIN_WORDS_AFTER_TEXT} words each, differ in at most
 *       {@link #MAX_DIFFERING_WORDS} words, fewer than half of the longer: the same question in other
 *       words ("... in Python?" and "... in Java?", "... invoice on file?" and "... invoice with an
 *       example?");
 *   <li>without their last words (at most {@link #MAX_DIFFERING_WORDS} each, not none of both) they
 *       end alike for at least {@link #MIN_WORDS_BEFORE_OTHER_ENDING} words: the same question with another ending, also one
 *       whose last line is short or that runs over several lines (a pasted code block ending in
 *       "... for x in signals:" asked again ending "... for beginners:").
 * </ul>
 *
 * The rules that use it ask in addition that the other request's reply held the passage: answered
 * alike, which questions that merely look alike are not.
 */
public final class SameQuestion {

  /** A shared last line shorter than this ("Thanks!") is not a question. */
  public static final int MIN_WORDS = 3;

  /** A question matched inside a longer last message, or in other words, is at least this long. */
  public static final int MIN_WORDS_AFTER_TEXT = 5;

  /**
   * Prompts that end in other words are the same question when this many words before those agree:
   * twice {@link #MIN_WORDS_AFTER_TEXT}, as a Chinese question of five characters is one short phrase.
   */
  public static final int MIN_WORDS_BEFORE_OTHER_ENDING = 2 * MIN_WORDS_AFTER_TEXT;

  /** Last lines differing in more words than this ask different questions. */
  public static final int MAX_DIFFERING_WORDS = 3;

  private SameQuestion() {}

  public static boolean asked(String a, String b) {
    if (a == null || b == null || a.isBlank() || b.isBlank()) {
      return false;
    }
    String x = a.stripTrailing();
    String y = b.stripTrailing();
    if (sameLastMessage(x, y) || sameInOtherWords(lastLine(x), lastLine(y))) {
      return true;
    }
    int lastX = WordTokenizer.tokenize(lastLine(x)).size();
    int lastY = WordTokenizer.tokenize(lastLine(y)).size();
    // Both rules below compare words from the end, never further back than this.
    int reach = Math.max(Math.max(lastX, lastY), MAX_DIFFERING_WORDS + MIN_WORDS_BEFORE_OTHER_ENDING);
    TokenizedText tx = lastWords(x, reach);
    TokenizedText ty = lastWords(y, reach);
    return endsWithTheOthersQuestion(lastX, lastY, tx, ty) || sameButTheLastWords(tx, ty);
  }

  /**
   * The last words of {@code text}, at least {@code n} of them or all it has: the text from the
   * start of a line on, where tokenizing begins as it does at the text's start (no word spans a
   * line break). A long prompt's history and pasted documents are not tokenized for its question.
   */
  static TokenizedText lastWords(String text, int n) {
    int from = text.lastIndexOf(MessageText.SEPARATOR) + 1;
    int words = WordTokenizer.tokenize(text.substring(from)).size();
    while (from > 0 && words < n) {
      int line = text.lastIndexOf(MessageText.SEPARATOR, from - 2) + 1;
      words += WordTokenizer.tokenize(text.substring(line, from - 1)).size();
      from = line;
    }
    return WordTokenizer.tokenize(from == 0 ? text : text.substring(from));
  }

  private static boolean sameLastMessage(String x, String y) {
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

  /**
   * One prompt's last line ends the other word for word (after pasted text, a "Question:" label...).
   * {@code tx} and {@code ty} hold at least the longer last line's words, or all of their prompt's.
   */
  private static boolean endsWithTheOthersQuestion(int lastX, int lastY, TokenizedText tx, TokenizedText ty) {
    int common = 0;
    while (common < tx.size() && common < ty.size()
        && tx.hash(tx.size() - 1 - common) == ty.hash(ty.size() - 1 - common)) {
      common++;
    }
    return lastX >= MIN_WORDS_AFTER_TEXT && common >= lastX || lastY >= MIN_WORDS_AFTER_TEXT && common >= lastY;
  }

  /** Two last lines that differ in a few words: a common start and a common end cover nearly all of both. */
  private static boolean sameInOtherWords(String x, String y) {
    TokenizedText tx = WordTokenizer.tokenize(x);
    TokenizedText ty = WordTokenizer.tokenize(y);
    int shorter = Math.min(tx.size(), ty.size());
    int longer = Math.max(tx.size(), ty.size());
    if (shorter < MIN_WORDS_AFTER_TEXT) {
      return false;
    }
    int prefix = 0;
    while (prefix < shorter && tx.hash(prefix) == ty.hash(prefix)) {
      prefix++;
    }
    int suffix = 0;
    while (suffix < shorter - prefix && tx.hash(tx.size() - 1 - suffix) == ty.hash(ty.size() - 1 - suffix)) {
      suffix++;
    }
    int differing = longer - (prefix + suffix);
    return differing <= MAX_DIFFERING_WORDS && 2 * differing < longer;
  }

  /**
   * Without their last {@code dx} and {@code dy} words (at most {@link #MAX_DIFFERING_WORDS} each, one
   * at least), the two end alike for {@link #MIN_WORDS_BEFORE_OTHER_ENDING} words.
   */
  private static boolean sameButTheLastWords(TokenizedText tx, TokenizedText ty) {
    for (int dx = 0; dx <= MAX_DIFFERING_WORDS; dx++) {
      for (int dy = dx == 0 ? 1 : 0; dy <= MAX_DIFFERING_WORDS; dy++) {
        int ex = tx.size() - dx;
        int ey = ty.size() - dy;
        int common = 0;
        while (common < MIN_WORDS_BEFORE_OTHER_ENDING && common < ex && common < ey
            && tx.hash(ex - 1 - common) == ty.hash(ey - 1 - common)) {
          common++;
        }
        if (common >= MIN_WORDS_BEFORE_OTHER_ENDING) {
          return true;
        }
      }
    }
    return false;
  }

  private static String lastLine(String text) {
    return text.substring(text.lastIndexOf(MessageText.SEPARATOR) + 1);
  }

  private static boolean startsLine(String text, int at) {
    return at == 0 || text.charAt(at - 1) == MessageText.SEPARATOR;
  }
}

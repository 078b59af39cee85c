package io.kvscope.samples.text;

import java.util.EnumSet;
import java.util.Set;

/**
 * Counts words the way the truth states fragment lengths: a word is a run of letters and digits
 * (any script), where one of {@code . @ - ' : / + _} between two of them joins the run, so an
 * e-mail address, {@code 0.5.22} or {@code don't} is one word. Punctuation, symbols and code
 * operators are not words. In scripts written without spaces between words (Han, Hiragana,
 * Katakana, Thai, Lao, Khmer, Myanmar, Tibetan) each character counts as a word, as such text is
 * measured in characters. This is the unit of the "leaks of at least 12 words" quality figures.
 */
public final class Words {

  private static final String JOINERS = ".@-':/+_\u2019";

  private Words() {}

  private static final Set<Character.UnicodeScript> SPACELESS = EnumSet.of(Character.UnicodeScript.HAN,
      Character.UnicodeScript.HIRAGANA, Character.UnicodeScript.KATAKANA, Character.UnicodeScript.THAI,
      Character.UnicodeScript.LAO, Character.UnicodeScript.KHMER, Character.UnicodeScript.MYANMAR,
      Character.UnicodeScript.TIBETAN);

  /** A character of a script written without spaces, or of the CJK punctuation and full-width blocks. */
  static boolean spaceless(int cp) {
    if (cp < 0x0E00) {
      return false; // Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari ... all use spaces
    }
    Character.UnicodeBlock block = Character.UnicodeBlock.of(cp);
    return SPACELESS.contains(Character.UnicodeScript.of(cp))
        || block == Character.UnicodeBlock.CJK_SYMBOLS_AND_PUNCTUATION
        || block == Character.UnicodeBlock.HALFWIDTH_AND_FULLWIDTH_FORMS;
  }

  static boolean isMark(int cp) {
    int type = Character.getType(cp);
    return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK;
  }

  public static int count(CharSequence text) {
    int words = 0;
    boolean inWord = false;
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (Character.isLetterOrDigit(c) && spaceless(Character.codePointAt(text, i))) {
        words++; // one word a character; a trailing surrogate is not a letter and ends nothing
        inWord = false;
      } else if (Character.isLetterOrDigit(c)) {
        if (!inWord) {
          words++;
          inWord = true;
        }
      } else if (inWord && JOINERS.indexOf(c) >= 0 && i + 1 < n && Character.isLetterOrDigit(text.charAt(i + 1))) {
        // the run goes on
      } else {
        inWord = false;
      }
    }
    return words;
  }
}

package io.kvscope.samples.text;

/**
 * Counts words the way the truth states fragment lengths: a word is a run of letters and digits
 * (any script), where one of {@code . @ - ' : / + _} between two of them joins the run, so an
 * e-mail address, {@code 0.5.22} or {@code don't} is one word. Punctuation, symbols and code
 * operators are not words. This is the unit of the "leaks of at least 12 words" quality figures.
 */
public final class Words {

  private static final String JOINERS = ".@-':/+_\u2019";

  private Words() {}

  public static int count(CharSequence text) {
    int words = 0;
    boolean inWord = false;
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      if (Character.isLetterOrDigit(c)) {
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

package io.kvscope.model.evidence;

import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.TokenizedText;
import java.util.function.Predicate;

/**
 * Tells a model's stock phrasing from a copied passage, for short runs.
 *
 * <p>A model's stock sentences ("Here is an overview of the material provided.") are short and
 * combine freely, so two replies can share a run of T words made of two of them that neither took
 * from the other; the run itself is rare. A run is stock phrasing when every word of it lies in a
 * piece of {@code pieceWords} words that is common in replies, or when each of its sentence pieces
 * is. Which pieces are common is asked of {@code common} (a lookup the caller remembers).
 */
public final class StockRuns {

  private StockRuns() {}

  /** Whether {@code range} of {@code text} is made of common pieces. */
  public static boolean isStock(TokenizedText text, TextRange range, int pieceWords, Predicate<String> common) {
    return coveredByCommonPieces(text, range, pieceWords, common) || sentencesAreCommon(text, range, common);
  }

  /**
   * Whether each piece of {@code range} between sentence ends ({@code . ! ? : ;} and a space) is
   * common. Eight-word pieces miss a run that ends a few words into a stock sentence: every piece
   * covering those words also holds the end of the sentence before, a pairing few replies share.
   */
  static boolean sentencesAreCommon(TokenizedText text, TextRange range, Predicate<String> common) {
    int from = range.tokenStart();
    for (int word = range.tokenStart(); word < range.tokenEnd(); word++) {
      if (word == range.tokenEnd() - 1 || endsSentence(text, word)) {
        if (!common.test(text.text().substring(text.start(from), text.end(word)))) {
          return false;
        }
        from = word + 1;
      }
    }
    return true;
  }

  static boolean coveredByCommonPieces(TokenizedText text, TextRange range, int pieceWords, Predicate<String> common) {
    int coveredUpTo = range.tokenStart(); // words before this lie in a common piece
    for (int piece = range.tokenStart(); piece + pieceWords <= range.tokenEnd(); piece++) {
      if (piece > coveredUpTo) {
        return false; // a word no common piece can cover any more
      }
      if (common.test(text.text().substring(text.start(piece), text.end(piece + pieceWords - 1)))) {
        coveredUpTo = piece + pieceWords;
      }
    }
    return coveredUpTo >= range.tokenEnd();
  }

  private static boolean endsSentence(TokenizedText text, int word) {
    int next = word + 1 < text.size() ? text.start(word + 1) : text.text().length();
    for (int i = text.end(word); i < next; i++) {
      char c = text.text().charAt(i);
      boolean thenSpace = i + 1 >= text.text().length() || Character.isWhitespace(text.text().charAt(i + 1));
      if ((c == '.' || c == '!' || c == '?' || c == ':' || c == ';') && thenSpace) {
        return true; // not the point inside 10.7 or a host name
      }
    }
    return false;
  }
}

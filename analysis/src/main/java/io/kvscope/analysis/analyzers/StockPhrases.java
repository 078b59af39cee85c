package io.kvscope.analysis.analyzers;

import io.kvscope.index.Schema;
import io.kvscope.index.fingerprint.TextRange;
import io.kvscope.index.fingerprint.TokenizedText;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tells a model's stock phrasing from a copied passage, for short matches.
 *
 * <p>Fingerprints see runs of T words. A model's stock sentences ("Here is an overview of the
 * material provided.") are shorter and combine freely, so two replies can share a run of T words
 * made of two such sentences that neither took from the other; the run itself is rare, so the
 * boilerplate cut-off on fingerprints does not catch it. Such a span is stock phrasing when every
 * word of it lies in a piece of {@code pieceWords} words that replies of at least
 * {@code minTenants} tenants contain, or when each of its sentence pieces is in that many
 * tenants' replies. Pieces are looked up as phrase queries on the reply text
 * (replies are short, so their positions are cheap to read) and remembered, as the same stock
 * sentences come back in reply after reply.
 */
final class StockPhrases {

  private static final int REMEMBERED_PIECES = 100_000;

  private final SpanHolders holders;
  private final int pieceWords;
  private final int minTenants;
  private final Map<String, Boolean> commonPieces = new HashMap<>();
  long lookups;

  /**
   * @param holders looks pieces up word for word
   * @param pieceWords words in a piece (the fingerprint k-gram length)
   * @param minTenants a piece in replies of this many tenants is stock phrasing
   */
  StockPhrases(SpanHolders holders, int pieceWords, int minTenants) {
    this.holders = holders;
    this.pieceWords = pieceWords;
    this.minTenants = minTenants;
  }

  /**
   * Whether every word of {@code range} in {@code text} lies in a common piece, or every sentence
   * piece of it is common.
   */
  boolean isStock(TokenizedText text, TextRange range) throws IOException {
    return coveredByCommonPieces(text, range) || sentencesAreCommon(text, range);
  }

  /**
   * Whether each piece of {@code range} between sentence ends ({@code . ! ? : ;} and a space) is
   * common. Eight-word pieces miss a span that ends a few words into a stock sentence: every piece
   * covering those words also holds the end of the sentence before, a pairing few replies share.
   */
  private boolean sentencesAreCommon(TokenizedText text, TextRange range) throws IOException {
    int from = range.tokenStart();
    for (int word = range.tokenStart(); word < range.tokenEnd(); word++) {
      if (word == range.tokenEnd() - 1 || endsSentence(text, word)) {
        if (!isCommon(text.text().substring(text.start(from), text.end(word)))) {
          return false;
        }
        from = word + 1;
      }
    }
    return true;
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

  private boolean coveredByCommonPieces(TokenizedText text, TextRange range) throws IOException {
    int coveredUpTo = range.tokenStart(); // words before this lie in a common piece
    for (int piece = range.tokenStart(); piece + pieceWords <= range.tokenEnd(); piece++) {
      if (piece > coveredUpTo) {
        return false; // a word no common piece can cover any more
      }
      if (isCommon(text.text().substring(text.start(piece), text.end(piece + pieceWords - 1)))) {
        coveredUpTo = piece + pieceWords;
      }
    }
    return coveredUpTo >= range.tokenEnd();
  }

  private boolean isCommon(String piece) throws IOException {
    Boolean known = commonPieces.get(piece);
    if (known != null) {
      return known;
    }
    boolean common = tenantsWithPiece(piece) >= minTenants;
    if (commonPieces.size() >= REMEMBERED_PIECES) {
      commonPieces.clear(); // bounded memory; the lookups are cheap to repeat
    }
    commonPieces.put(piece, common);
    return common;
  }

  /** Tenants whose replies contain {@code piece}, counted up to {@link #minTenants}. */
  private int tenantsWithPiece(String piece) throws IOException {
    lookups++;
    return holders.tenants(piece, List.of(Schema.RESPONSE_TEXT), doc -> true, minTenants).size();
  }
}

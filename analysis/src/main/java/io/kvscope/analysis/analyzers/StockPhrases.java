package io.kvscope.analysis.analyzers;

import io.kvscope.model.evidence.StockRuns;
import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.TokenizedText;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Which short runs are a model's stock phrasing ({@link StockRuns}): a piece is common when replies
 * of at least {@code minTenants} tenants hold it, looked up word for word in the index (replies are
 * short, so their positions are cheap to read) and remembered, as the same stock sentences come back
 * in reply after reply.
 */
final class StockPhrases {

  private static final int REMEMBERED_PIECES = 100_000;

  private final TextIndex index;
  private final int pieceWords;
  private final int minTenants;
  private final Map<String, Boolean> commonPieces = new HashMap<>();
  long lookups;

  /**
   * @param pieceWords words in a piece (the fingerprint k-gram length)
   * @param minTenants a piece in replies of this many tenants is stock phrasing
   */
  StockPhrases(TextIndex index, int pieceWords, int minTenants) {
    this.index = index;
    this.pieceWords = pieceWords;
    this.minTenants = minTenants;
  }

  boolean isStock(TokenizedText text, TextRange range) throws IOException {
    try {
      return StockRuns.isStock(text, range, pieceWords, this::isCommon);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private boolean isCommon(String piece) {
    Boolean known = commonPieces.get(piece);
    if (known != null) {
      return known;
    }
    boolean common;
    try {
      lookups++;
      common = index.replyTenants(piece, minTenants) >= minTenants;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (commonPieces.size() >= REMEMBERED_PIECES) {
      commonPieces.clear(); // bounded memory; the lookups are cheap to repeat
    }
    commonPieces.put(piece, common);
    return common;
  }
}

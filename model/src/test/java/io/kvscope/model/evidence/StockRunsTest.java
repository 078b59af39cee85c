package io.kvscope.model.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StockRunsTest {

  private static final String OVERVIEW = "Here is an overview of the material provided.";
  private static final String PASSAGE = "In addition, the records include the following passage:";

  @Test
  void aRunOfCommonSentencesIsStockAndOneWithAnUncommonPieceIsNot() {
    Set<String> common = Set.of(OVERVIEW.substring(0, OVERVIEW.length() - 1), PASSAGE.substring(0, PASSAGE.length() - 1));
    TokenizedText text = WordTokenizer.tokenize("Intro words. " + OVERVIEW + " " + PASSAGE + " quantum walrus");
    int start = 2;
    int stockEnd = start + 8 + 8; // the two sentences
    assertThat(StockRuns.isStock(text, text.range(start, stockEnd), 8, common::contains)).isTrue();
    assertThat(StockRuns.isStock(text, text.range(start, stockEnd + 2), 8, common::contains)).isFalse();
  }

  @Test
  void everyWordInACommonEightWordPieceIsStockToo() {
    TokenizedText text = WordTokenizer.tokenize("a b c d e f g h i j");
    Set<String> pieces = Set.of("a b c d e f g h", "c d e f g h i j");
    assertThat(StockRuns.coveredByCommonPieces(text, text.range(0, 10), 8, pieces::contains)).isTrue();
    assertThat(StockRuns.coveredByCommonPieces(text, text.range(0, 10), 8, Set.of("a b c d e f g h")::contains)).isFalse();
  }
}

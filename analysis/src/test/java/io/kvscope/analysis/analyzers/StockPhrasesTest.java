package io.kvscope.analysis.analyzers;

import static io.kvscope.analysis.TestIndex.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.TestIndex;
import io.kvscope.index.IndexSearch;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stock phrasing is what replies of several tenants hold word for word, looked up in a real index.
 * The run "glorp snee vashti morl quib" is in replies of tenants a, b and c; the run "plix dorn
 * wabe tussel frim" is in two replies of a and one of b, and in c's prompt only.
 */
class StockPhrasesTest {

  private static final String COMMON = "glorp snee vashti morl quib";
  private static final String TWO_TENANTS = "plix dorn wabe tussel frim";
  private static final int PIECE_WORDS = 4;

  @TempDir Path tmp;

  private IndexSearch search;
  private LuceneTextIndex index;

  @BeforeEach
  void index() throws Exception {
    TestIndex test = new TestIndex(tmp.resolve("index"));
    reply(test, "a1", "a", "Sure. " + COMMON + " and then " + TWO_TENANTS + " indeed.");
    reply(test, "a2", "a", "Well, " + TWO_TENANTS + " once more.");
    reply(test, "b1", "b", "First " + COMMON + " then " + TWO_TENANTS + ".");
    reply(test, "c1", "c", "Again " + COMMON + ", as always.");
    test.add(request("c2", "c", "2026-08-28T10:00:00Z", 100, 200)
        .promptText("Please explain " + TWO_TENANTS).responseText("No idea.").build());
    search = test.open();
    index = new LuceneTextIndex(search.reader(), RequestColumns.load(new AnalysisContext(search, AnalysisOptions.defaults())));
  }

  @AfterEach
  void close() throws Exception {
    search.close();
  }

  @Test
  void aRunInRepliesOfEnoughTenantsIsStockWhateverItsCase() throws IOException {
    StockPhrases stock = new StockPhrases(index, PIECE_WORDS, 3);

    assertThat(isStock(stock, "He said " + COMMON + " twice")).isTrue();
    assertThat(isStock(stock, "He said Glorp SNEE Vashti morl quib twice")).isTrue();
  }

  @Test
  void aRunInRepliesOfFewerTenantsIsNotStock() throws IOException {
    assertThat(isStock(new StockPhrases(index, PIECE_WORDS, 4), "He said " + COMMON + " twice")).isFalse();
  }

  /** Two replies of one tenant count once, and a prompt holding the run is not a reply. */
  @Test
  void tenantsAreCountedOnceAndOnlyByTheirReplies() throws IOException {
    StockPhrases stock = new StockPhrases(index, PIECE_WORDS, 3);

    assertThat(isStock(stock, "He said " + TWO_TENANTS + " twice")).isFalse();
    assertThat(isStock(new StockPhrases(index, PIECE_WORDS, 2), "He said " + TWO_TENANTS + " twice")).isTrue();
  }

  @Test
  void aPieceLookedUpOnceIsRemembered() throws IOException {
    StockPhrases stock = new StockPhrases(index, PIECE_WORDS, 3);
    isStock(stock, "He said " + COMMON + " twice");
    long first = stock.lookups;
    long indexLookups = index.lookups;

    assertThat(isStock(stock, "She said " + COMMON + " once")).isTrue();

    assertThat(first).isPositive();
    assertThat(stock.lookups).isEqualTo(first);
    assertThat(index.lookups).isEqualTo(indexLookups);
  }

  @Test
  void aFailedLookupSurfacesAsTheIndexsOwnIOException() {
    IOException failure = new IOException("segment unreadable");
    TextIndex broken = new TextIndex() {
      @Override
      public void holders(String passage, IntPredicate eligible, HolderVisitor visitor) {}

      @Override
      public int replyTenants(String piece, int atMost) throws IOException {
        throw failure;
      }

      @Override
      public String text(int doc, String field) {
        return null;
      }
    };

    assertThatThrownBy(() -> isStock(new StockPhrases(broken, PIECE_WORDS, 3), "He said " + COMMON + " twice"))
        .isSameAs(failure);
  }

  /** Whether the five words after "He said" / "She said" are stock phrasing. */
  private static boolean isStock(StockPhrases stock, String sentence) throws IOException {
    TokenizedText text = WordTokenizer.tokenize(sentence);
    return stock.isStock(text, text.range(2, 7));
  }

  private static void reply(TestIndex index, String id, String tenant, String response) {
    index.add(request(id, tenant, "2026-08-28T09:00:00Z", 100, 200).promptText("question " + id).responseText(response)
        .build());
  }
}

package io.kvscope.analysis.analyzers;

import static io.kvscope.analysis.TestIndex.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.TestIndex;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.doc.Schema;
import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who holds a passage word for word (the phrase-query loop that was SpanHolders): prompts first,
 * then replies, only eligible requests, until the visitor says stop. "in-prompt" holds the passage
 * in its prompt, "in-reply" in its reply, "in-both" in both, "shouting" in its reply in capitals,
 * "near-miss" only with a word in between.
 */
class LuceneTextIndexTest {

  private static final String PASSAGE = "quorn belvid astrap mollify tenzer";

  @TempDir Path tmp;

  private IndexSearch search;
  private RequestColumns columns;
  private LuceneTextIndex index;

  @BeforeEach
  void index() throws Exception {
    TestIndex test = new TestIndex(tmp.resolve("index"));
    add(test, "in-prompt", "a", "Remember " + PASSAGE + " please", "Noted.");
    add(test, "in-reply", "b", "What was it?", "It was " + PASSAGE + ".");
    add(test, "in-both", "c", "Say " + PASSAGE, "You said " + PASSAGE);
    add(test, "shouting", "d", "Loud?", "QUORN BELVID ASTRAP MOLLIFY TENZER!");
    add(test, "near-miss", "e", "quorn belvid astrap very mollify tenzer", "quorn belvid, astrap; mollify x tenzer");
    add(test, "chinese", "f", "说说怎么建立健全的小区安全防控体系", "第一步：制定明确的目标和策略，争取将失窃次数降低。");
    add(test, "address", "g", "Who wrote?", "john.doe@example.com and Quorn belvid astrap wrote.");
    search = test.open();
    columns = RequestColumns.load(new AnalysisContext(search, AnalysisOptions.defaults()));
    index = new LuceneTextIndex(search.reader(), columns);
  }

  @AfterEach
  void close() throws Exception {
    search.close();
  }

  @Test
  void everyExactHolderIsVisitedPromptsFirstAndOncePerField() throws IOException {
    List<String> visits = holders(doc -> true, Integer.MAX_VALUE);

    assertThat(visits.subList(0, 2)).containsExactlyInAnyOrder("in-prompt prompt", "in-both prompt");
    assertThat(visits.subList(2, visits.size()))
        .containsExactlyInAnyOrder("in-reply reply", "in-both reply", "shouting reply");
  }

  @Test
  void anIneligibleRequestIsNotVisited() throws IOException {
    IntPredicate notInBoth = doc -> !id(doc).equals("in-both");

    assertThat(holders(notInBoth, Integer.MAX_VALUE))
        .containsExactlyInAnyOrder("in-prompt prompt", "in-reply reply", "shouting reply");
  }

  @Test
  void theVisitorStopsTheWalkAcrossBothFields() throws IOException {
    assertThat(holders(doc -> true, 1)).hasSize(1);
    assertThat(holders(doc -> true, 3)).hasSize(3);
  }

  @Test
  void replyTenantsCountsDistinctTenantsUpToTheCutOff() throws IOException {
    assertThat(index.replyTenants(PASSAGE, 10)).isEqualTo(3); // b, c and d; a's is a prompt
    assertThat(index.replyTenants(PASSAGE, 2)).isEqualTo(2);
    assertThat(index.replyTenants("belvid quorn", 10)).isZero();
  }

  @Test
  void aStoredTextIsReadBack() throws IOException {
    int doc = docOf("in-reply");

    assertThat(index.text(doc, Schema.RESPONSE_TEXT)).isEqualTo("It was " + PASSAGE + ".");
    assertThat(index.text(doc, Schema.PROMPT_TEXT)).isEqualTo("What was it?");
  }

  @Test
  void aPassageCutFromTheMiddleOfChineseTextIsFoundWhereItIsHeld() throws IOException {
    TokenizedText response = WordTokenizer.tokenize("我认为：制定明确的目标和策略，争取将失窃次数降低到去年的一半");
    TextRange middle = response.range(4, 15); // 定 .. 取: starts and ends inside a run of characters

    String passage = Passages.textOf(response, middle);

    assertThat(passage).isEqualTo("定明确的目标和策略，争取");
    List<String> visits = new ArrayList<>();
    index.holders(passage, doc -> true, (doc, inReply) -> visits.add(id(doc) + (inReply ? " reply" : " prompt")));
    assertThat(visits).containsExactly("chinese reply");
  }

  @Test
  void aPassageIsItsWordsAsWrittenAndAnIdentifierInItIsFoundAsOneWord() throws IOException {
    TokenizedText response = WordTokenizer.tokenize("see John.Doe@example.com and quorn belvid astrap");
    TextRange fromTheAddress = response.range(1, 6); // john.doe@example.com is one word, in the index too

    String passage = Passages.textOf(response, fromTheAddress);

    assertThat(passage).isEqualTo("John.Doe@example.com and quorn belvid astrap");
    assertThat(holdersOf(passage)).containsExactly("address reply");
    assertThat(holdersOf("example.com and quorn")).as("a part of the address is no word of it").isEmpty();
  }

  private List<String> holdersOf(String passage) throws IOException {
    List<String> visits = new ArrayList<>();
    index.holders(passage, doc -> true, (doc, inReply) -> visits.add(id(doc) + (inReply ? " reply" : " prompt")));
    return visits;
  }

  /** "id field" for each visit, stopping after {@code limit} visits. */
  private List<String> holders(IntPredicate eligible, int limit) throws IOException {
    List<String> visits = new ArrayList<>();
    index.holders(PASSAGE, eligible, (doc, inReply) -> {
      visits.add(id(doc) + (inReply ? " reply" : " prompt"));
      return visits.size() < limit;
    });
    return visits;
  }

  private String id(int doc) {
    try {
      return columns.requestId(doc).substring("gw-".length());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private int docOf(String id) {
    for (int doc = 0; doc < search.reader().maxDoc(); doc++) {
      if (columns.isRequest(doc) && id(doc).equals(id)) {
        return doc;
      }
    }
    throw new AssertionError("no request " + id);
  }

  private static void add(TestIndex index, String id, String tenant, String prompt, String reply) {
    index.add(request(id, tenant, "2026-08-28T09:00:00Z", 100, 200).promptText(prompt).responseText(reply).build());
  }
}

package io.kvscope.index.doc;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.IndexSearch;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The text fields of an index on disk hold the leak model's words, one a position, however they were cut. */
class WordTokensTest {

  private static final String TEXT = "Mail John.Doe@Example.com: sk-proj-AbC123 costs 12,345.67 \u2014 it\u2019s 我认为 Done.";
  /** Its words as the leak model cuts them (model's WordTokenizer rules), written out by hand. */
  private static final List<String> WORDS = List.of("mail", "john.doe@example.com", "sk-proj-abc123", "costs",
      "12,345.67", "it's", "我", "认", "为", "done");

  @TempDir Path tmp;

  @Test
  void aRequestsTextsAndATextGivenToTheAnalyzerHoldTheSameWordsAtTheirPositions() throws IOException {
    Path index = tmp.resolve("index");
    try (IndexStore store = IndexStore.open(index)) {
      store.put(Documents.request(RequestRecord.builder("r1").tenant("acme").promptText(TEXT).responseText(TEXT)
          .startTime(1_787_788_800_000L).sourceFile("gw.jsonl").sourceLine(1).build()));
      Document analyzed = new Document(); // no words cut before: the index's analyzer cuts them
      analyzed.add(new StringField(Schema.ID, "analyzed", Field.Store.YES));
      FieldType text = new FieldType(TextField.TYPE_STORED);
      text.setOmitNorms(true); // as the index's text fields are
      analyzed.add(new Field(Schema.PROMPT_TEXT, TEXT, text));
      store.put(analyzed);
      store.commit();
    }

    try (FSDirectory directory = FSDirectory.open(index); DirectoryReader reader = DirectoryReader.open(directory)) {
      assertThat(reader.numDocs()).isEqualTo(2);
      for (int doc = 0; doc < reader.maxDoc(); doc++) {
        assertThat(wordsAtPositions(reader, Schema.PROMPT_TEXT, doc)).as("prompt of doc " + doc).isEqualTo(WORDS);
      }
      int request = reader.storedFields().document(0).get(Schema.ID).equals("analyzed") ? 1 : 0;
      assertThat(wordsAtPositions(reader, Schema.RESPONSE_TEXT, request)).isEqualTo(WORDS);
    }
  }

  @Test
  void searchFindsAnIdentifierAsOneWordAndAWordLongerThanLuceneTakesByItsWholeSelf() throws Exception {
    StringBuilder blob = new StringBuilder("QUJD"); // 45,000 chars of one base64 word: over Lucene's 32,766-byte term
    while (blob.length() < 45_000) {
      blob.append("ZGVm+Z2hp/").append(blob.length() % 10);
    }
    Path index = tmp.resolve("search");
    try (IndexStore store = IndexStore.open(index)) {
      store.put(Documents.request(RequestRecord.builder("r1").tenant("acme").promptText("write to John.Doe@example.com today")
          .startTime(1_787_788_800_000L).sourceFile("gw.jsonl").sourceLine(1).build()));
      store.put(Documents.request(RequestRecord.builder("r2").tenant("acme").promptText("the image " + blob + " attached")
          .startTime(1_787_788_800_000L).sourceFile("gw.jsonl").sourceLine(2).build()));
      store.commit();
    }

    try (IndexSearch search = IndexSearch.open(index)) {
      assertThat(search.search("john.doe@example.com", 10).total()).isEqualTo(1);
      assertThat(search.search("\"to JOHN.DOE@EXAMPLE.COM today\"", 10).total()).isEqualTo(1);
      assertThat(search.search("john", 10).total()).as("a part of an identifier is no word").isZero();
      assertThat(search.search("\"image " + blob + " attached\"", 10).total()).isEqualTo(1);
    }
  }

  /** The terms of {@code field} in {@code doc}, in position order (one each). */
  private static List<String> wordsAtPositions(DirectoryReader reader, String field, int doc) throws IOException {
    TreeMap<Integer, String> byPosition = new TreeMap<>();
    for (LeafReaderContext leaf : reader.leaves()) {
      int local = doc - leaf.docBase;
      Terms terms = leaf.reader().terms(field);
      if (local < 0 || local >= leaf.reader().maxDoc() || terms == null) {
        continue;
      }
      TermsEnum each = terms.iterator();
      for (BytesRef term = each.next(); term != null; term = each.next()) {
        PostingsEnum postings = each.postings(null, PostingsEnum.POSITIONS);
        if (postings.advance(local) == local) {
          for (int i = 0; i < postings.freq(); i++) {
            assertThat(byPosition.put(postings.nextPosition(), term.utf8ToString())).as("one word a position").isNull();
          }
        }
      }
    }
    return new ArrayList<>(byPosition.values());
  }
}

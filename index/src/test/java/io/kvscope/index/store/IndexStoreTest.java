package io.kvscope.index.store;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.WordTokens;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.fingerprint.FingerprintFields;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field.Store;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexStoreTest {

  @TempDir Path tmp;

  /** Every entry below {@code dir} with its permissions and size: what "untouched" means. */
  private static Map<String, String> state(Path dir) throws IOException {
    Map<String, String> state = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.toList()) {
        state.put(dir.relativize(p).toString(), PosixFilePermissions.toString(Files.getPosixFilePermissions(p))
            + (Files.isRegularFile(p) ? " " + Files.size(p) : ""));
      }
    }
    return state;
  }

  private static void addOne(IndexStore store, String id) throws IOException {
    store.put(Documents.request(RequestRecord.builder(id).tenant("acme").promptText("secret prompt of " + id)
        .startTime(1_787_788_800_000L).sourceFile("gw.jsonl").sourceLine(1).build()));
  }

  @Test
  void aFolderOfTheUsersThatIsNoIndexIsRefusedAndLeftExactlyAsItWas() throws Exception {
    Path notes = Files.createDirectories(tmp.resolve("notes"));
    Files.writeString(notes.resolve("todo.txt"), "call the vendor");
    Files.createDirectories(notes.resolve("drafts"));
    Files.writeString(notes.resolve("drafts/_0.cfs"), "looks like Lucene's, is not");
    Files.setPosixFilePermissions(notes.resolve("todo.txt"), PosixFilePermissions.fromString("rw-r--r--"));
    Map<String, String> before = state(notes);

    assertThatThrownBy(() -> IndexStore.open(notes)).isInstanceOf(IOException.class)
        .hasMessageContaining("not empty and holds no kvscope index");
    assertThatThrownBy(() -> IndexStore.open(notes.resolve("todo.txt"))).isInstanceOf(IOException.class)
        .hasMessageContaining("is a file");

    assertThat(state(notes)).isEqualTo(before);
  }

  /**
   * An index as an older build wrote it: this build's request document, with one of its fields
   * put back the way that build wrote it.
   */
  private static void writeOlderIndex(Path dir, java.util.function.Consumer<Document> asBefore) throws IOException {
    writeOlderIndex(dir, asBefore, IndexStore.writerConfig(), Map.of(IndexStore.FINGERPRINT_SCHEME,
        Documents.FINGERPRINTS.schemeId(), IndexStore.TEXT_WORDS, WordTokens.SCHEME));
  }

  private static void writeOlderIndex(Path dir, java.util.function.Consumer<Document> asBefore, IndexWriterConfig config,
      Map<String, String> commitData) throws IOException {
    Document doc = Documents.request(RequestRecord.builder("old-1").tenant("acme").promptText("secret prompt of old-1")
        .responseText("a reply").startTime(1_787_788_800_000L).sourceFile("gw.jsonl").sourceLine(1).build());
    asBefore.accept(doc);
    try (FSDirectory directory = FSDirectory.open(dir);
        IndexWriter writer = new IndexWriter(directory, config)) {
      writer.addDocument(doc);
      writer.setLiveCommitData(commitData.entrySet());
      writer.commit();
    }
  }

  /** Opening {@code old} for writing is refused in words naming what it keeps; it stays as it was and searchable. */
  private void assertRefusedAndLeftSearchable(Path old, String kept) throws Exception {
    Map<String, String> before = state(old);

    assertThatThrownBy(() -> IndexStore.open(old)).isInstanceOf(IOException.class)
        .hasMessageContaining(old.toString()).hasMessageContaining("older kvscope")
        .hasMessageContaining(kept).hasMessageContaining("new index directory");

    assertThat(state(old)).isEqualTo(before);
    try (IndexSearch search = IndexSearch.open(old)) {
      assertThat(search.search("secret", 10).total()).isEqualTo(1);
      assertThat(search.search("\"prompt of old-1\"", 10).total()).isEqualTo(1);
    }
  }

  @Test
  void anIndexWhoseTextsKeepNormsIsRefusedInWordsLeftAsItWasAndStillSearched() throws Exception {
    Path old = Files.createDirectories(tmp.resolve("old"));
    writeOlderIndex(old, doc -> {
      for (String field : Schema.TEXT_FIELDS) { // with Lucene's default length norms (what TextField keeps)
        String text = doc.get(field);
        doc.removeField(field);
        doc.add(new TextField(field, text, Store.YES));
      }
    });
    assertRefusedAndLeftSearchable(old, "keeps length norms");
  }

  @Test
  void anIndexWhoseIdsKeepDocValuesIsRefusedInWordsLeftAsItWasAndStillSearched() throws Exception {
    Path old = Files.createDirectories(tmp.resolve("old-ids"));
    writeOlderIndex(old, doc -> {
      String id = doc.get(Schema.ID);
      doc.removeField(Schema.ID);
      doc.add(new KeywordField(Schema.ID, id, Store.YES)); // an exact term with doc values
    });
    assertRefusedAndLeftSearchable(old, "'_id' keeps doc values");
  }

  @Test
  void anIndexWhoseFingerprintsAreTermsIsRefusedInWordsLeftAsItWasAndStillSearched() throws Exception {
    Path old = Files.createDirectories(tmp.resolve("old-fingerprints"));
    org.apache.lucene.document.FieldType asTerms = new org.apache.lucene.document.FieldType(); // as written before
    asTerms.setIndexOptions(IndexOptions.DOCS);
    asTerms.setTokenized(false);
    asTerms.setOmitNorms(true);
    asTerms.freeze();
    writeOlderIndex(old, doc -> { // its texts are too short to have fingerprints: one each, as terms
      for (String field : java.util.List.of(FingerprintFields.PROMPT, FingerprintFields.RESPONSE)) {
        doc.add(new org.apache.lucene.document.Field(field, FingerprintFields.packed(42), asTerms));
      }
    });
    assertRefusedAndLeftSearchable(old, "'fp_prompt' keeps the fingerprints as terms");
    assertThatThrownBy(() -> IndexStore.open(old)).hasMessageContaining("not analyzed for overlap");
  }

  @Test
  void anIndexOfLucenesStandardWordsIsRefusedInWordsForWritingSearchAndAnalysisAndLeftAsItWas() throws Exception {
    Path old = Files.createDirectories(tmp.resolve("old-words"));
    // As builds before 2026-12-07 wrote it: the texts cut by Lucene's standard analyzer, no words named in the commit.
    IndexWriterConfig standard = new IndexWriterConfig(new org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper(
        new org.apache.lucene.analysis.core.KeywordAnalyzer(), Map.of(Schema.PROMPT_TEXT,
            new org.apache.lucene.analysis.standard.StandardAnalyzer(), Schema.RESPONSE_TEXT,
            new org.apache.lucene.analysis.standard.StandardAnalyzer())));
    writeOlderIndex(old, doc -> {
      for (String field : Schema.TEXT_FIELDS) { // as a text given to the analyzer, not as words cut before
        String text = doc.get(field);
        doc.removeField(field);
        doc.add(new org.apache.lucene.document.Field(field, text, textType()));
      }
    }, standard, Map.of(IndexStore.FINGERPRINT_SCHEME, Documents.FINGERPRINTS.schemeId()));
    Map<String, String> before = state(old);

    assertThatThrownBy(() -> IndexStore.open(old)).isInstanceOf(IncompatibleIndexException.class)
        .hasMessageContaining(old.toString()).hasMessageContaining("older kvscope")
        .hasMessageContaining("Lucene's standard words").hasMessageContaining("ingest again into a new index directory");
    assertThatThrownBy(() -> IndexSearch.open(old)).isInstanceOf(IncompatibleIndexException.class)
        .hasMessageContaining("neither added to, searched nor analyzed");
    assertThat(state(old)).isEqualTo(before);
  }

  private static org.apache.lucene.document.FieldType textType() {
    org.apache.lucene.document.FieldType type = new org.apache.lucene.document.FieldType(TextField.TYPE_STORED);
    type.setOmitNorms(true);
    return type;
  }

  /** The live documents of {@code dir} by id, each with its prompt: what replacing must leave. */
  private static Map<String, String> promptsById(Path dir) throws IOException {
    Map<String, String> prompts = new TreeMap<>();
    try (IndexSearch search = IndexSearch.open(dir)) {
      io.kvscope.index.doc.TypedDocs.forEach(search.reader(), Schema.TYPE_REQUEST, doc -> {
        assertThat(prompts.put(doc.get(Schema.ID), doc.get(Schema.PROMPT_TEXT))).as("one document an id").isNull();
      });
    }
    return prompts;
  }

  private static String idOf(String requestId) {
    return Documents.requestDocumentId(RequestRecord.builder(requestId).sourceFile("gw.jsonl").sourceLine(1).build());
  }

  private static void put(IndexStore store, String requestId, String prompt) throws IOException {
    store.put(Documents.request(RequestRecord.builder(requestId).tenant("acme").promptText(prompt)
        .startTime(1_787_788_800_000L).sourceFile("gw.jsonl").sourceLine(1).build()));
  }

  @Test
  void anIdWrittenAgainReplacesItsDocumentInANewIndexAnAppendedOneAndAfterShardsWereAdded() throws Exception {
    Path dir = tmp.resolve("ids");
    try (IndexStore store = IndexStore.open(dir)) {
      put(store, "r1", "first of r1");
      put(store, "r2", "first of r2");
      put(store, "r1", "second of r1");
      put(store, "r3", "first of r3");
      store.delete(idOf("r3"));
      put(store, "r3", "second of r3");
      store.writer().flush(); // the first writes in a segment of their own, the next ones after it
      put(store, "r2", "second of r2");
      store.commit();
    }
    assertThat(promptsById(dir)).isEqualTo(Map.of(idOf("r1"), "second of r1", idOf("r2"), "second of r2",
        idOf("r3"), "second of r3"));

    try (IndexStore again = IndexStore.open(dir)) {
      put(again, "r1", "third of r1");
      put(again, "r4", "first of r4");
      again.commit();
    }
    assertThat(promptsById(dir)).isEqualTo(Map.of(idOf("r1"), "third of r1", idOf("r2"), "second of r2",
        idOf("r3"), "second of r3", idOf("r4"), "first of r4"));

    Path shard = tmp.resolve("shard");
    try (FSDirectory directory = FSDirectory.open(shard);
        IndexWriter writer = new IndexWriter(directory, IndexStore.writerConfig())) {
      writer.addDocument(Documents.request(RequestRecord.builder("r5").promptText("first of r5")
          .sourceFile("gw.jsonl").sourceLine(1).build()));
      writer.commit();
    }
    Path joined = tmp.resolve("joined");
    try (IndexStore store = IndexStore.open(joined); FSDirectory directory = FSDirectory.open(shard)) {
      put(store, "r6", "first of r6");
      store.addIndexes(directory);
      put(store, "r5", "second of r5");
      put(store, "r6", "second of r6");
      store.commit();
    }
    assertThat(promptsById(joined)).isEqualTo(Map.of(idOf("r5"), "second of r5", idOf("r6"), "second of r6"));
  }

  @Test
  void anIndexThisKvscopeBuiltIsAppendedToItsTextsKeepNoNormsItsIdsNoDocValuesItsFingerprintsArePoints() throws Exception {
    Path dir = tmp.resolve("new");
    try (IndexStore store = IndexStore.open(dir)) {
      addOne(store, "r1");
      store.commit();
    }
    try (IndexStore again = IndexStore.open(dir)) {
      addOne(again, "r2");
      again.put(Documents.request(RequestRecord.builder("r3").tenant("acme").startTime(1_787_788_800_000L)
          .promptText("a question long enough to be fingerprinted, with more than sixteen words in it, as every"
              + " winnowed window of eight words needs")
          .sourceFile("gw.jsonl").sourceLine(3).build()));
      again.commit();
    }
    try (IndexSearch search = IndexSearch.open(dir)) {
      assertThat(search.search("\"secret prompt\"", 10).total()).isEqualTo(2);
      FieldInfo prompt = FieldInfos.getMergedFieldInfos(search.reader()).fieldInfo(Schema.PROMPT_TEXT);
      assertThat(prompt.hasNorms()).isFalse();
      FieldInfo id = FieldInfos.getMergedFieldInfos(search.reader()).fieldInfo(Schema.ID);
      assertThat(id.getDocValuesType()).isEqualTo(org.apache.lucene.index.DocValuesType.NONE);
      assertThat(id.getIndexOptions()).isEqualTo(IndexOptions.DOCS);
      assertThat(search.reader().docFreq(new org.apache.lucene.index.Term(Schema.ID, idOf("r2")))).as("found by its id")
          .isEqualTo(1);
      assertThat(prompt.getIndexOptions()).isEqualTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS);
      FieldInfo fingerprints = FieldInfos.getMergedFieldInfos(search.reader()).fieldInfo(FingerprintFields.PROMPT);
      assertThat(fingerprints.getIndexOptions()).isEqualTo(IndexOptions.NONE);
      assertThat(fingerprints.getPointDimensionCount()).as("the fingerprints are points").isEqualTo(1);
    }
  }

  @Test
  void anEmptyFolderAnIndexAndAnIndexKilledBeforeItsFirstCommitAreOpened() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    try (IndexStore store = IndexStore.open(empty)) {
      addOne(store, "r1");
      store.commit();
    }
    try (IndexStore again = IndexStore.open(empty)) {
      addOne(again, "r2"); // never committed: like a kill before the first commit of a new index
    }
    Path killed = tmp.resolve("killed");
    try (IndexStore store = IndexStore.open(killed)) {
      addOne(store, "r3");
    }
    try (IndexStore reopened = IndexStore.open(killed)) {
      assertThat(reopened.path()).isEqualTo(killed);
    }
    assertThat(killed.resolve(CaseKey.FILE_NAME)).isRegularFile();
  }

  @Test
  void segmentFilesAreOwnerOnlyBeforeAnyCommitEvenInASharedFolder() throws Exception {
    Path shared = Files.createDirectories(tmp.resolve("shared"));
    assumeTrue(new ProcessBuilder("chmod", "1777", shared.toString()).start().waitFor() == 0, "no sticky bit here");

    try (IndexStore store = IndexStore.open(shared)) {
      for (int i = 0; i < 200; i++) {
        addOne(store, "r" + i);
      }
      store.writer().flush(); // segment files on disk, no commit yet (no chmod has run)
      try (Stream<Path> files = Files.list(shared)) {
        assertThat(files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("write.lock")).toList())
            .as("segment files were written").hasSizeGreaterThan(1)
            .allSatisfy(f -> assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).as("%s", f)
                .isEqualTo("rw-------"));
      }
    }
    assertThat((Integer) Files.getAttribute(shared, "unix:mode") & 07777).as("the shared folder itself is left open")
        .isEqualTo(01777);
  }

  @Test
  void commitsWhileMergesArePausedKeepEachFlushedSegmentAndTheIndexSearchable() throws Exception {
    Path dir = tmp.resolve("unmerged");
    int commits = 30; // three times the merge policy's segments per tier: plain commits would merge
    try (IndexStore store = IndexStore.open(dir); java.io.Closeable paused = store.mergesPaused()) {
      for (int i = 0; i < commits; i++) {
        addOne(store, "r" + i);
        store.commit();
      }
    }
    try (IndexSearch search = IndexSearch.open(dir)) {
      assertThat(search.reader().leaves()).hasSize(commits);
      assertThat(search.search("\"secret prompt\"", 100).total()).isEqualTo(commits);
    }
    try (IndexStore again = IndexStore.open(dir)) {
      addOne(again, "after");
      again.commit();
    }
    try (IndexSearch search = IndexSearch.open(dir)) {
      assertThat(search.search("\"secret prompt\"", 100).total()).as("appended to as usual").isEqualTo(commits + 1);
    }
  }
}

package io.kvscope.index.fingerprint;

import io.kvscope.model.fingerprint.Words;
import io.kvscope.model.fingerprint.FingerprintConfig;
import io.kvscope.model.fingerprint.Fingerprinter;
import io.kvscope.model.fingerprint.FrequencyHistogram;
import io.kvscope.model.fingerprint.ResponseCoverage;
import io.kvscope.model.fingerprint.SharedSpan;
import io.kvscope.model.fingerprint.SpanVerifier;
import io.kvscope.model.fingerprint.TermFrequencyListener;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The self-join on a real on-disk index with several segments: planted cross-tenant spans are
 * found, boilerplate shared by every tenant is skipped, deleted documents and same-tenant reuse
 * are left out, and verification of each candidate recovers the planted span.
 */
class FingerprintJoinTest {

  private static final FingerprintConfig CONFIG = FingerprintConfig.defaults();
  private static final int DOCS = 48;
  private static final int UNKNOWN_TENANT_DOC = 47;

  @TempDir Path indexDir;
  @TempDir Path spillDir;

  private final Words words = new Words(1234);
  private final String[] prompts = new String[DOCS];
  private final String[] responses = new String[DOCS];
  private final String[] tenants = new String[DOCS];
  /** Ground truth: recipient id -> (source id -> planted span length). */
  private final Map<Integer, Map<Integer, Integer>> planted = new HashMap<>();

  @BeforeEach
  void buildCorpus() {
    List<String> systemPrompt = words.words(60);
    List<String> stockPhrase = words.words(25);
    List<List<String>> promptParts = new ArrayList<>();
    List<List<String>> responseParts = new ArrayList<>();
    for (int i = 0; i < DOCS; i++) {
      tenants[i] = i == UNKNOWN_TENANT_DOC ? null : "t" + (i % 6);
      promptParts.add(Words.concat(systemPrompt, words.words(80 + words.random().nextInt(200))));
      responseParts.add(words.words(60 + words.random().nextInt(90)));
    }
    // Cross-tenant leaks: source prompt -> recipient response, one response -> response,
    // two sources in one response, and one source without a tenant.
    plant(promptParts, 3, responseParts, 20, 45);
    plant(responseParts, 7, responseParts, 26, 30);
    plant(promptParts, 5, responseParts, 30, 40);
    plant(promptParts, 9, responseParts, 30, 35);
    plant(promptParts, UNKNOWN_TENANT_DOC, responseParts, 46, 28);
    // Same tenant (t5): only with includeSameTenant.
    plant(promptParts, 11, responseParts, 17, 30);
    // Sources or recipients that get deleted.
    plant(promptParts, 33, responseParts, 34, 40);
    plant(promptParts, 40, responseParts, 41, 40);
    // Same question (t3 and t2): prompt 38 repeats part of prompt 15 and its reply quotes it.
    List<String> question = promptParts.get(15).subList(100, 130);
    promptParts.get(38).addAll(List.copyOf(question));
    responseParts.get(38).addAll(3, List.copyOf(question));
    // Boilerplate: three responses echo part of the shared system prompt; twelve responses (two
    // per tenant) end with the same stock phrase.
    for (int i : ECHOING_RESPONSES) {
      responseParts.get(i).addAll(10, systemPrompt.subList(5, 35));
    }
    for (int i : STOCK_PHRASE_RESPONSES) {
      responseParts.get(i).addAll(stockPhrase);
    }
    for (int i = 0; i < DOCS; i++) {
      prompts[i] = Words.join(promptParts.get(i));
      responses[i] = Words.join(responseParts.get(i));
    }
  }

  /** Recipient 38 quotes its own prompt, which holds the same words as prompt 15. */
  private static final String SAME_QUESTION = "38->15";

  private static final Set<Integer> ECHOING_RESPONSES = Set.of(1, 2, 13);
  private static final Set<Integer> STOCK_PHRASE_RESPONSES =
      Set.of(12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23);

  /**
   * Copies {@code length} words from the end region of a source text (clear of the system
   * prompt) into the recipient's response, before its last five words and after any earlier
   * plant, followed by three words of its own.
   */
  private void plant(
      List<List<String>> sourceParts, int source, List<List<String>> recipientParts,
      int recipient, int length) {
    List<String> from = sourceParts.get(source);
    int at = from.size() - length - 5;
    List<String> fragment = Words.concat(from.subList(at, at + length), words.words(3));
    List<String> into = recipientParts.get(recipient);
    into.addAll(into.size() - 5, fragment);
    planted.computeIfAbsent(recipient, k -> new HashMap<>()).put(source, length);
  }

  private Directory writeIndex() throws IOException {
    Directory dir = FSDirectory.open(indexDir);
    IndexWriterConfig iwc =
        new IndexWriterConfig(new StandardAnalyzer()).setMergePolicy(NoMergePolicy.INSTANCE);
    try (IndexWriter writer = new IndexWriter(dir, iwc)) {
      for (int i = 0; i < DOCS; i++) {
        Document doc = new Document();
        doc.add(new StringField("id", Integer.toString(i), Field.Store.YES));
        doc.add(new StoredField("prompt_text", prompts[i]));
        doc.add(new StoredField("response_text", responses[i]));
        if (tenants[i] != null) {
          doc.add(new SortedDocValuesField("tenant", new BytesRef(tenants[i])));
        }
        FingerprintFields.addTo(doc, prompts[i], responses[i], CONFIG);
        writer.addDocument(doc);
        if (i % 8 == 7) {
          writer.commit(); // one segment per eight documents
        }
      }
      writer.deleteDocuments(new Term("id", "33"), new Term("id", "41"));
      writer.commit();
    }
    return dir;
  }

  /** Runs the join and maps candidates to test ids as "recipient->source". */
  private List<String> join(DirectoryReader reader, JoinOptions options, List<Candidate> out)
      throws IOException {
    FingerprintJoin join =
        new FingerprintJoin(reader, TenantOrdinals.fromSortedDocValues(reader, "tenant"));
    List<String> pairs = new ArrayList<>();
    join.run(options, PairFilter.ALL, c -> {
      out.add(c);
      pairs.add(id(reader, c.recipientDoc()) + "->" + id(reader, c.sourceDoc()));
    });
    return pairs;
  }

  private static int id(DirectoryReader reader, int doc) throws IOException {
    return Integer.parseInt(reader.storedFields().document(doc).get("id"));
  }

  private static Set<String> expectedCrossTenant() {
    // Responses carrying the same fragment are candidates in both directions (7 <-> 26);
    // deciding who came first is the caller's time filter.
    return Set.of("20->3", "26->7", "7->26", "30->5", "30->9", "46->47");
  }

  @Test
  void indexHasSeveralSegmentsPointFieldsAndDeletions() throws IOException {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      assertThat(reader.leaves().size()).isGreaterThanOrEqualTo(6);
      assertThat(reader.numDeletedDocs()).isEqualTo(2);
      for (LeafReaderContext leaf : reader.leaves()) {
        for (String field : List.of(FingerprintFields.PROMPT, FingerprintFields.RESPONSE)) {
          FieldInfo info = leaf.reader().getFieldInfos().fieldInfo(field);
          assertThat(info.getIndexOptions()).isEqualTo(IndexOptions.NONE);
          assertThat(info.getPointDimensionCount()).isEqualTo(1);
          assertThat(info.getPointNumBytes()).isEqualTo(FingerprintFields.BYTES);
          assertThat(leaf.reader().terms(field)).isNull();
        }
      }
      assertThat(reader.storedFields().document(0).get(FingerprintFields.PROMPT)).isNull();
      // The index holds the fingerprints of doc 0's prompt, each found by Lucene's own exact point query.
      org.apache.lucene.search.IndexSearcher searcher = new org.apache.lucene.search.IndexSearcher(reader);
      long[] expected = new Fingerprinter(CONFIG).fingerprint(prompts[0]).distinctHashes();
      for (long hash : expected) {
        assertThat(searcher.count(org.apache.lucene.document.BinaryPoint.newExactQuery(
            FingerprintFields.PROMPT, FingerprintFields.packed(hash).bytes))).isPositive();
      }
    }
  }

  @Test
  void joinFindsEveryPlantedCrossTenantPairInRecipientOrder() throws IOException {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      List<Candidate> candidates = new ArrayList<>();
      List<String> pairs =
          join(reader, JoinOptions.defaults().withMaxTenantFrequency(3), candidates);

      assertThat(pairs).containsAll(expectedCrossTenant());
      for (int i = 1; i < candidates.size(); i++) {
        Candidate a = candidates.get(i - 1);
        Candidate b = candidates.get(i);
        assertThat(a.recipientDoc() < b.recipientDoc()
                || (a.recipientDoc() == b.recipientDoc() && a.sourceDoc() < b.sourceDoc()))
            .isTrue();
      }
      for (Candidate c : candidates) {
        int recipient = id(reader, c.recipientDoc());
        int source = id(reader, c.sourceDoc());
        String pair = recipient + "->" + source;
        if (expectedCrossTenant().contains(pair)) {
          boolean responseToResponse = pair.equals("26->7") || pair.equals("7->26");
          assertThat(responseToResponse ? c.sharedWithSourceResponse() : c.sharedWithSourcePrompt())
              .as(pair).isPositive();
          assertThat(responseToResponse ? c.sharedWithSourcePrompt() : c.sharedWithSourceResponse())
              .as(pair).isZero();
        } else {
          // Anything else is the same question, or comes from the edges of boilerplate that few
          // docs selected.
          assertThat(pair.equals(SAME_QUESTION)
                  || ECHOING_RESPONSES.contains(recipient)
                  || STOCK_PHRASE_RESPONSES.contains(recipient))
              .as(pair).isTrue();
          assertThat(tenants[recipient]).as(pair).isNotEqualTo(tenants[source]);
          assertThat(recipient == 34 || recipient == 41 || source == 33 || source == 41)
              .as("deleted docs never take part: " + pair).isFalse();
        }
      }
    }
  }

  /**
   * The whole analysis path: join, verify, subtract the own prompt, drop spans that too many
   * tenants contain. What is left is exactly the planted cross-tenant spans.
   */
  @Test
  void joinThenVerifyConfirmsExactlyThePlantedLeaks() throws IOException {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      TenantOrdinals tenantOrdinals = TenantOrdinals.fromSortedDocValues(reader, "tenant");
      SpanFrequencyProbe probe = new SpanFrequencyProbe(reader, tenantOrdinals, CONFIG);
      SpanVerifier verifier = new SpanVerifier(CONFIG);
      List<Candidate> candidates = new ArrayList<>();
      join(reader, JoinOptions.defaults().withMaxTenantFrequency(3), candidates);

      Map<Integer, Map<Integer, List<SharedSpan>>> confirmed = new LinkedHashMap<>();
      for (Candidate c : candidates) {
        Document recipient = reader.storedFields().document(c.recipientDoc());
        Document source = reader.storedFields().document(c.sourceDoc());
        TokenizedText response = WordTokenizer.tokenize(recipient.get("response_text"));
        TokenizedText ownPrompt = WordTokenizer.tokenize(recipient.get("prompt_text"));
        List<SharedSpan> kept = new ArrayList<>();
        for (String field : List.of("prompt_text", "response_text")) {
          TokenizedText sourceText = WordTokenizer.tokenize(source.get(field));
          for (SharedSpan span : verifier.unexplainedSpans(response, sourceText, ownPrompt)) {
            if (probe.frequency(response, span.recipient()).tenantFrequency() <= 3) {
              kept.add(span);
            }
          }
        }
        if (!kept.isEmpty()) {
          confirmed
              .computeIfAbsent(Integer.parseInt(recipient.get("id")), k -> new LinkedHashMap<>())
              .put(Integer.parseInt(source.get("id")), kept);
        }
      }

      Set<String> confirmedPairs = new TreeSet<>();
      confirmed.forEach((r, bySource) -> bySource.keySet().forEach(s -> confirmedPairs.add(r + "->" + s)));
      assertThat(confirmedPairs).isEqualTo(new TreeSet<>(expectedCrossTenant()));
      for (int recipient : List.of(20, 26, 30, 46)) {
        for (Map.Entry<Integer, Integer> e : planted.get(recipient).entrySet()) {
          List<SharedSpan> spans = confirmed.get(recipient).get(e.getKey());
          assertThat(spans).hasSize(1);
          assertThat(spans.get(0).tokenCount()).isEqualTo(e.getValue());
        }
      }
      ResponseCoverage<Integer> coverage = ResponseCoverage.of(confirmed.get(30));
      assertThat(coverage.coveredTokens()).isEqualTo(40 + 35);
      assertThat(coverage.tokensCoveredByMoreThanOneSource()).isZero();
    }
  }

  @Test
  void spanFrequencyTellsBoilerplateFromLeaks() throws IOException {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      SpanFrequencyProbe probe = new SpanFrequencyProbe(
          reader, TenantOrdinals.fromSortedDocValues(reader, "tenant"), CONFIG);

      TokenizedText stock = WordTokenizer.tokenize(responses[12]);
      SpanFrequency stockFrequency = probe.frequency(stock, stock.range(stock.size() - 25, stock.size()));
      assertThat(stockFrequency.docFrequency()).isEqualTo(STOCK_PHRASE_RESPONSES.size());
      assertThat(stockFrequency.tenantFrequency()).isEqualTo(6);

      TokenizedText echo = WordTokenizer.tokenize(responses[1]);
      SpanFrequency echoFrequency = probe.frequency(echo, echo.range(10, 40));
      assertThat(echoFrequency.docFrequency()).isEqualTo(DOCS - 2);
      assertThat(echoFrequency.tenantFrequency()).isEqualTo(7);

      TokenizedText leak = WordTokenizer.tokenize(responses[20]);
      SharedSpan planted = new SpanVerifier(CONFIG)
          .verify(leak, WordTokenizer.tokenize(prompts[3])).get(0);
      SpanFrequency leakFrequency = probe.frequency(leak, planted.recipient());
      assertThat(leakFrequency.docFrequency()).isEqualTo(2);
      assertThat(leakFrequency.tenantFrequency()).isEqualTo(2);
      assertThat(leakFrequency.fingerprints()).isPositive();

      TokenizedText orphan = WordTokenizer.tokenize(responses[34]);
      SharedSpan fromDeleted = new SpanVerifier(CONFIG)
          .verify(orphan, WordTokenizer.tokenize(prompts[33])).get(0);
      assertThat(probe.frequency(orphan, fromDeleted.recipient()).docFrequency()).isEqualTo(1);
    }
  }

  @Test
  void textTheRecipientsOwnPromptCarriesMakesNoCandidateWhenAskedTo() throws IOException {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      JoinOptions options = JoinOptions.defaults().withMaxTenantFrequency(3);
      assertThat(join(reader, options, new ArrayList<>())).contains(SAME_QUESTION);

      FingerprintJoin join =
          new FingerprintJoin(reader, TenantOrdinals.fromSortedDocValues(reader, "tenant"));
      List<String> pairs = new ArrayList<>();
      JoinStats stats = join.run(options.withOwnPromptExplains(true), PairFilter.ALL,
          c -> pairs.add(id(reader, c.recipientDoc()) + "->" + id(reader, c.sourceDoc())));

      assertThat(pairs).containsAll(expectedCrossTenant()).doesNotContain(SAME_QUESTION);
      assertThat(stats.explainedByOwnPrompt()).isPositive();
    }
  }

  @Test
  void sameTenantReuseAppearsOnlyWhenAskedFor() throws IOException {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      List<String> pairs = join(
          reader,
          JoinOptions.defaults().withMaxTenantFrequency(3).withIncludeSameTenant(true),
          new ArrayList<>());

      assertThat(pairs).containsAll(expectedCrossTenant()).contains("17->11");
      List<String> crossOnly =
          join(reader, JoinOptions.defaults().withMaxTenantFrequency(3), new ArrayList<>());
      assertThat(crossOnly).doesNotContain("17->11");
    }
  }

  @Test
  void frequenciesSeparateLeaksFromBoilerplateAndIgnoreDeletedDocs() throws IOException {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      FrequencyHistogram histogram = new FrequencyHistogram(16);
      new FingerprintJoin(reader, TenantOrdinals.fromSortedDocValues(reader, "tenant"))
          .frequencies(histogram, 2);

      // 1: same-tenant reuse; 2: the leaks; 6: the stock phrase (two responses per tenant);
      // 7: the system prompt echo (six tenants and the doc without one). Edges of boilerplate
      // may fall in between; nothing exceeds 7 tenants.
      long[] counts = histogram.counts();
      assertThat(counts[0]).isZero();
      assertThat(counts[1]).isPositive();
      assertThat(counts[2]).isPositive();
      assertThat(counts[6]).isPositive();
      assertThat(counts[7]).isPositive();
      assertThat(histogram.termsAbove(7)).isZero();
      assertThat(histogram.tenantFrequencyAtQuantile(1.0)).isEqualTo(7);
      assertThat(histogram.maxDocFrequency()).isEqualTo(DOCS - 2);
    }
  }

  /**
   * The walk merges every segment's points of both fields in hash order: it must see every shared
   * fingerprint, in hash order, with the same documents and tenants as the oracle below, which
   * collects each segment's points on its own with Lucene's plain visit of every value.
   */
  @Test
  void theWalkSeesEveryFingerprintTheSegmentsHold() throws IOException {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      java.util.function.IntUnaryOperator tenantOf = TenantOrdinals.fromSortedDocValues(reader, "tenant");
      java.util.TreeMap<Long, TreeSet<Integer>> responseDocs = allPoints(reader, FingerprintFields.RESPONSE);
      java.util.TreeMap<Long, TreeSet<Integer>> promptDocs = allPoints(reader, FingerprintFields.PROMPT);
      List<String> expected = new ArrayList<>();
      int inBoth = 0;
      for (Map.Entry<Long, TreeSet<Integer>> response : responseDocs.entrySet()) {
        TreeSet<Integer> docs = new TreeSet<>(response.getValue());
        if (promptDocs.containsKey(response.getKey())) {
          inBoth++;
          docs.addAll(promptDocs.get(response.getKey()));
        }
        Set<Integer> known = new TreeSet<>();
        int unknown = 0;
        for (int doc : docs) {
          int tenant = tenantOf.applyAsInt(doc);
          if (tenant < 0) {
            unknown++;
          } else {
            known.add(tenant);
          }
        }
        if (docs.size() >= 2 && !response.getValue().isEmpty()) {
          expected.add(docs.size() + "/" + (known.size() + unknown));
        }
      }
      assertThat(inBoth).isGreaterThan(50); // replies quoting prompts: the prompts' points matter
      List<String> walked = new ArrayList<>();
      new FingerprintJoin(reader, tenantOf).run(JoinOptions.defaults(), PairFilter.ALL,
          (docFrequency, tenantFrequency) -> walked.add(docFrequency + "/" + tenantFrequency), candidate -> {});
      assertThat(walked).isNotEmpty().containsExactlyElementsOf(expected);
    }
  }

  /** Every live (hash, top-level doc) of {@code field}, by unsigned hash, read segment by segment. */
  static java.util.TreeMap<Long, TreeSet<Integer>> allPoints(DirectoryReader reader, String field) throws IOException {
    java.util.TreeMap<Long, TreeSet<Integer>> docs = new java.util.TreeMap<>(Long::compareUnsigned);
    for (LeafReaderContext leaf : reader.leaves()) {
      org.apache.lucene.index.PointValues values = leaf.reader().getPointValues(field);
      org.apache.lucene.util.Bits live = leaf.reader().getLiveDocs();
      if (values == null) {
        continue;
      }
      values.intersect(new org.apache.lucene.index.PointValues.IntersectVisitor() {
        @Override
        public void visit(int doc) {
          throw new AssertionError("every value is asked for with its doc");
        }

        @Override
        public void visit(int doc, byte[] packed) {
          long hash = java.nio.ByteBuffer.wrap(packed).getLong(); // big-endian, as written
          TreeSet<Integer> holders = docs.computeIfAbsent(hash, h -> new TreeSet<>());
          if (live == null || live.get(doc)) {
            holders.add(leaf.docBase + doc);
          }
        }

        @Override
        public org.apache.lucene.index.PointValues.Relation compare(byte[] min, byte[] max) {
          return org.apache.lucene.index.PointValues.Relation.CELL_CROSSES_QUERY;
        }
      });
    }
    return docs;
  }

  @Test
  void frequenciesWalkedInRangesOnSeveralThreadsAddUpToOneWalk() throws IOException {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      FingerprintJoin join =
          new FingerprintJoin(reader, TenantOrdinals.fromSortedDocValues(reader, "tenant"));
      // The join's own walk, in term order on one thread, is told every shared fingerprint too.
      FrequencyHistogram oneWalk = new FrequencyHistogram(16);
      join.run(JoinOptions.defaults(), PairFilter.ALL, oneWalk, candidate -> {});
      assertThat(oneWalk.totalTerms()).isGreaterThan(10);

      for (int parts : new int[] {1, 2, 3, 7}) {
        FrequencyHistogram inRanges = new FrequencyHistogram(16);
        join.frequencies(inRanges, parts);
        assertThat(inRanges.counts()).as("%d parts", parts).isEqualTo(oneWalk.counts());
        assertThat(inRanges.totalTerms()).isEqualTo(oneWalk.totalTerms());
        assertThat(inRanges.maxDocFrequency()).isEqualTo(oneWalk.maxDocFrequency());
      }
    }
  }

  @Test
  void withoutTheCutOffBoilerplatePairsFloodInAndThePairGuardStopsThem() throws IOException {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      List<String> flooded =
          join(reader, JoinOptions.defaults().withMaxTenantFrequency(100), new ArrayList<>());
      assertThat(flooded).containsAll(expectedCrossTenant());
      assertThat(flooded).contains("1->2", "1->0"); // echo of the system prompt in response 1

      List<String> guarded = join(
          reader,
          JoinOptions.defaults().withMaxTenantFrequency(100).withMaxPairsPerTerm(10),
          new ArrayList<>());
      assertThat(guarded).containsAll(expectedCrossTenant()).doesNotContain("1->2", "1->0");
    }
  }

  @Test
  void spillingToDiskGivesTheSameCandidatesAsMemory() throws IOException {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      JoinOptions wide =
          JoinOptions.defaults().withMaxTenantFrequency(100).withIncludeSameTenant(true);
      List<Candidate> inMemory = new ArrayList<>();
      join(reader, wide, inMemory);

      FingerprintJoin join =
          new FingerprintJoin(reader, TenantOrdinals.fromSortedDocValues(reader, "tenant"));
      List<Candidate> spilled = new ArrayList<>();
      JoinStats stats = join.run(wide.withMemoryPairBudget(64, spillDir), PairFilter.ALL, spilled::add);

      assertThat(stats.spilledRuns()).isGreaterThan(5);
      assertThat(spilled).isEqualTo(inMemory);
      assertThat(stats.candidates()).isEqualTo(inMemory.size());
      try (var files = Files.list(spillDir)) {
        assertThat(files.toList()).isEmpty();
      }
    }
  }

  @Test
  void aWalkCountedOnAnotherThreadEmitsWhatOneRunDoesAndClosingUnemittedDeletesItsSpill()
      throws Exception {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      JoinOptions spilling = JoinOptions.defaults().withMaxTenantFrequency(100)
          .withIncludeSameTenant(true).withMemoryPairBudget(64, spillDir);
      List<Candidate> inOneRun = new ArrayList<>();
      join(reader, spilling, inOneRun);
      FingerprintJoin join =
          new FingerprintJoin(reader, TenantOrdinals.fromSortedDocValues(reader, "tenant"));

      var walking = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
        try {
          return join.count(spilling, PairFilter.ALL, TermFrequencyListener.NONE);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      List<Candidate> emitted = new ArrayList<>();
      try (FingerprintJoin.Counted counted = walking.get()) {
        assertThat(counted.emit(emitted::add).candidates()).isEqualTo(inOneRun.size());
      }
      assertThat(emitted).isEqualTo(inOneRun);

      FingerprintJoin.Counted unemitted = join.count(spilling, PairFilter.ALL, TermFrequencyListener.NONE);
      try (var files = Files.list(spillDir)) {
        assertThat(files.toList()).isNotEmpty();
      }
      unemitted.close();
      try (var files = Files.list(spillDir)) {
        assertThat(files.toList()).isEmpty();
      }
    }
  }

  @Test
  void thePairFilterVetoesBeforeCounting() throws IOException {
    try (Directory dir = writeIndex(); DirectoryReader reader = DirectoryReader.open(dir)) {
      FingerprintJoin join =
          new FingerprintJoin(reader, TenantOrdinals.fromSortedDocValues(reader, "tenant"));
      List<String> pairs = new ArrayList<>();
      // "The source came first": here, a smaller test id.
      JoinStats stats = join.run(
          JoinOptions.defaults().withMaxTenantFrequency(3),
          (r, s) -> idQuietly(reader, s) < idQuietly(reader, r),
          c -> pairs.add(id(reader, c.recipientDoc()) + "->" + id(reader, c.sourceDoc())));

      assertThat(pairs).contains("20->3", "26->7", "30->5", "30->9").doesNotContain("7->26");
      for (String pair : pairs) {
        String[] ids = pair.split("->");
        assertThat(Integer.parseInt(ids[1])).isLessThan(Integer.parseInt(ids[0]));
      }
      assertThat(stats.skippedByTenantFrequency()).isPositive();
      assertThat(stats.sharedTerms()).isLessThan(stats.responseTerms());
    }
  }

  private static int idQuietly(DirectoryReader reader, int doc) {
    try {
      return id(reader, doc);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}

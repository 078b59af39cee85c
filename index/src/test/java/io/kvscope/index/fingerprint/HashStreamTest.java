package io.kvscope.index.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The points of a real on-disk index with several segments, each of many BKD leaves, some documents
 * deleted: walked in unsigned hash order with the documents that were written, sought forward, and
 * looked up hash by hash. The ground truth is what the test wrote, not what the index answers.
 */
class HashStreamTest {

  private static final int SEGMENTS = 4;
  private static final int DOCS_PER_SEGMENT = 1500;

  @TempDir Path dir;

  /** Hash (unsigned order) to the docs that hold it, deleted ones too, and the deleted docs. */
  private final TreeMap<Long, TreeSet<Integer>> written = new TreeMap<>(Long::compareUnsigned);
  private final TreeSet<Integer> deleted = new TreeSet<>();

  private Directory write() throws IOException {
    Random random = new Random(7);
    long[] pool = new long[4000]; // shared by many documents, both halves of the unsigned range
    for (int i = 0; i < pool.length; i++) {
      pool[i] = random.nextLong();
    }
    pool[0] = 0;
    pool[1] = -1; // the largest unsigned hash
    Directory directory = FSDirectory.open(dir);
    IndexWriterConfig config = new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE);
    try (IndexWriter writer = new IndexWriter(directory, config)) {
      int doc = 0;
      for (int segment = 0; segment < SEGMENTS; segment++) {
        for (int i = 0; i < DOCS_PER_SEGMENT; i++, doc++) {
          TreeSet<Long> hashes = new TreeSet<>();
          for (int n = 1 + random.nextInt(5); n > 0; n--) {
            hashes.add(pool[random.nextInt(segment == SEGMENTS - 1 ? 40 : pool.length)]);
          }
          Document document = new Document();
          document.add(new StringField("id", Integer.toString(doc), Field.Store.NO));
          document.add(new SortedDocValuesField("tenant", new BytesRef("t" + doc % 5)));
          FingerprintFields.addHashes(document, FingerprintFields.RESPONSE,
              hashes.stream().mapToLong(Long::longValue).toArray());
          writer.addDocument(document);
          for (long hash : hashes) {
            written.computeIfAbsent(hash, h -> new TreeSet<>()).add(doc);
          }
        }
        writer.flush(); // one segment each
      }
      for (int victim = 5; victim < doc; victim += 97) {
        writer.deleteDocuments(new Term("id", Integer.toString(victim)));
        deleted.add(victim);
      }
      writer.commit();
    }
    return directory;
  }

  private List<Integer> live(TreeSet<Integer> docs) {
    return docs.stream().filter(doc -> !deleted.contains(doc)).toList();
  }

  private static int[] ints(java.util.Collection<Integer> docs) {
    return docs.stream().mapToInt(Integer::intValue).toArray();
  }

  @Test
  void aWalkGivesEveryHashInUnsignedOrderWithItsLiveDocs() throws IOException {
    try (Directory directory = write(); DirectoryReader reader = DirectoryReader.open(directory)) {
      assertThat(reader.leaves()).hasSize(SEGMENTS);
      assertThat(reader.leaves().get(0).reader().getPointValues(FingerprintFields.RESPONSE).size())
          .as("a segment spans many leaves").isGreaterThan(4 * 512);
      Map<Long, List<Integer>> walked = new TreeMap<>(Long::compareUnsigned);
      List<Long> order = new ArrayList<>();
      HashStream stream = new HashStream(reader, FingerprintFields.RESPONSE, 0, true);
      DocList docs = new DocList();
      while (!stream.isEmpty()) {
        long hash = stream.hash();
        stream.take(docs);
        order.add(hash);
        walked.put(hash, List.of(java.util.Arrays.stream(docs.docs, 0, docs.size).boxed().toArray(Integer[]::new)));
      }
      assertThat(order).containsExactlyElementsOf(written.keySet());
      written.forEach((hash, holders) -> assertThat(walked.get(hash)).as("%x", hash).isEqualTo(live(holders)));
    }
  }

  @Test
  void aStreamSoughtForwardStartsAtTheFirstHashNotBelowTheBound() throws IOException {
    try (Directory directory = write(); DirectoryReader reader = DirectoryReader.open(directory)) {
      Random random = new Random(3);
      List<Long> bounds = new ArrayList<>(List.of(1L, Long.MIN_VALUE, -1L));
      for (int i = 0; i < 20; i++) {
        bounds.add(random.nextLong());
      }
      for (long bound : bounds) {
        Long expected = written.ceilingKey(bound);
        HashStream fresh = new HashStream(reader, FingerprintFields.RESPONSE, bound, true);
        HashStream sought = new HashStream(reader, FingerprintFields.RESPONSE, 0, true);
        sought.skipTo(bound);
        for (HashStream stream : List.of(fresh, sought)) {
          if (expected == null) {
            assertThat(stream.isEmpty()).isTrue();
          } else {
            assertThat(stream.hash()).isEqualTo(expected);
          }
        }
      }
      // Forward, bound after bound, as a thread takes its chunks.
      HashStream stream = new HashStream(reader, FingerprintFields.RESPONSE, 0, true);
      List<Long> ascending = bounds.stream().sorted(Long::compareUnsigned).toList();
      for (long bound : ascending) {
        stream.skipTo(bound);
        Long expected = written.ceilingKey(bound);
        assertThat(stream.isEmpty() ? null : stream.hash()).isEqualTo(expected);
      }
    }
  }

  @Test
  void docsOfGivesEachAskedHashItsDocsInTheOrderAsked() throws IOException {
    try (Directory directory = write(); DirectoryReader reader = DirectoryReader.open(directory)) {
      Random random = new Random(5);
      List<Long> held = new ArrayList<>(written.keySet());
      long[] asked = new long[300];
      for (int i = 0; i < asked.length; i++) {
        asked[i] = i % 3 == 0 ? random.nextLong() : held.get(random.nextInt(held.size())); // a third absent
      }
      asked[10] = asked[11]; // asked twice
      int[][] live = HashStream.docsOf(reader, FingerprintFields.RESPONSE, asked, true);
      int[][] all = HashStream.docsOf(reader, FingerprintFields.RESPONSE, asked, false);
      int withDeleted = 0;
      for (int i = 0; i < asked.length; i++) {
        TreeSet<Integer> holders = written.getOrDefault(asked[i], new TreeSet<>());
        assertThat(live[i]).as("hash %x", asked[i]).containsExactly(ints(live(holders)));
        assertThat(all[i]).as("hash %x", asked[i]).containsExactly(ints(holders));
        withDeleted += all[i].length - live[i].length;
      }
      assertThat(withDeleted).as("some holders were deleted").isPositive();
      for (int[] docs : HashStream.docsOf(reader, FingerprintFields.PROMPT, asked, true)) {
        assertThat(docs).as("a field no document has").isEmpty();
      }
    }
  }

  @Test
  void anIndexWhoseFingerprintsAreTermsIsRefusedInWordsNotJoinedToNothing() throws IOException {
    FieldType asTerms = new FieldType(); // how an earlier kvscope wrote them
    asTerms.setIndexOptions(IndexOptions.DOCS);
    asTerms.setTokenized(false);
    asTerms.setOmitNorms(true);
    asTerms.freeze();
    try (Directory directory = FSDirectory.open(dir)) {
      try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
        for (int i = 0; i < 3; i++) {
          Document document = new Document();
          document.add(new SortedDocValuesField("tenant", new BytesRef("t" + i)));
          document.add(new Field(FingerprintFields.RESPONSE, FingerprintFields.packed(42), asTerms));
          writer.addDocument(document);
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(directory)) {
        FingerprintJoin join = new FingerprintJoin(reader, TenantOrdinals.fromSortedDocValues(reader, "tenant"));
        assertThatThrownBy(() -> join.run(JoinOptions.defaults(), PairFilter.ALL, candidate -> {}))
            .isInstanceOf(IOException.class).hasMessageContaining("earlier kvscope")
            .hasMessageContaining("fingerprints ('fp_response') are terms").hasMessageContaining("ingest the incident again");
        assertThatThrownBy(() -> HashStream.docsOf(reader, FingerprintFields.RESPONSE, new long[] {42}, true))
            .isInstanceOf(IOException.class).hasMessageContaining("earlier kvscope");
      }
    }
  }
}

package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * Stage 5's frequencies against the same counts made row by row in plain Java, on postings that
 * repeat fingerprints across requests, sides and tenants, read from one partition as a few large
 * files would be; and the postings each shared fingerprint's row hands on to the self-join.
 */
class FrequenciesTest {

  private record Posting(long hash, byte side, int request, int tenant) {}

  /** hash -> {responses, prompts, documents, tenants}, for fingerprints some response holds and two documents share. */
  private static Map<Long, List<Long>> counted(List<Posting> postings) {
    Map<Long, long[]> sides = new TreeMap<>();
    Map<Long, Set<Integer>> documents = new HashMap<>();
    Map<Long, Set<Integer>> tenants = new HashMap<>();
    for (Posting p : postings) {
      sides.computeIfAbsent(p.hash(), h -> new long[2])[p.side() == FingerprintStage.RESPONSE ? 0 : 1]++;
      documents.computeIfAbsent(p.hash(), h -> new HashSet<>()).add(p.request());
      tenants.computeIfAbsent(p.hash(), h -> new HashSet<>()).add(p.tenant());
    }
    Map<Long, List<Long>> shared = new TreeMap<>();
    sides.forEach((hash, n) -> {
      if (n[0] > 0 && documents.get(hash).size() >= 2) {
        shared.put(hash, List.of(n[0], n[1], (long) documents.get(hash).size(), (long) tenants.get(hash).size()));
      }
    });
    return shared;
  }

  @Test
  void sharedFingerprintsAreCountedAsPostingByPostingCountingGives() {
    Random random = new Random(7);
    List<Posting> postings = new ArrayList<>();
    for (int request = 0; request < 400; request++) {
      int tenant = request % 37; // more tenants than the counter's first array holds
      for (int i = 0; i < 30; i++) {
        long hash = random.nextInt(300); // few hashes: most are shared, some by one document only
        postings.add(new Posting(hash, random.nextBoolean() ? FingerprintStage.RESPONSE : FingerprintStage.PROMPT,
            request, tenant));
      }
    }
    postings.add(new Posting(1_000, FingerprintStage.PROMPT, 1, 1)); // prompts only: no response holds it
    postings.add(new Posting(1_000, FingerprintStage.PROMPT, 2, 2));
    postings.add(new Posting(2_000, FingerprintStage.RESPONSE, 3, 3)); // one document
    postings.add(new Posting(2_000, FingerprintStage.PROMPT, 3, 3));

    SparkSession spark = SharedSpark.session();
    List<Row> rows = postings.stream()
        .map(p -> RowFactory.create(p.hash(), p.side(), p.request(), p.tenant())).toList();
    List<Row> result = FingerprintStage.frequencies(
        spark.createDataFrame(rows, FingerprintStage.FINGERPRINT_SCHEMA).coalesce(1), FingerprintStage.MAX_POSTINGS)
        .collectAsList();

    Map<Long, List<Long>> got = new TreeMap<>();
    Map<Long, List<Posting>> handedOn = new TreeMap<>();
    for (Row row : result) {
      got.put(row.getLong(0), List.of(row.getLong(1), row.getLong(2), row.getLong(3), row.getLong(4)));
      handedOn.put(row.getLong(0), decoded(row));
    }
    Map<Long, List<Long>> expected = counted(postings);
    assertThat(expected).doesNotContainKeys(1_000L, 2_000L).hasSizeGreaterThan(200);
    assertThat(got).isEqualTo(expected);
    assertThat(handedOn).as("each shared fingerprint's postings, by request then side").isEqualTo(sortedByHash(postings,
        expected.keySet()));
  }

  /**
   * A fingerprint of more postings than the row may hold hands on none (null): the self-join's bound
   * skips it whatever the cut-off. Those of as many or fewer hand on all of theirs.
   */
  @Test
  void aFingerprintOfMorePostingsThanTheBoundHandsOnNone() {
    List<Posting> postings = new ArrayList<>();
    for (int request = 0; request < 6; request++) {
      postings.add(new Posting(7, FingerprintStage.RESPONSE, request, request)); // 6 postings
    }
    for (int request = 0; request < 5; request++) {
      postings.add(new Posting(8, request == 0 ? FingerprintStage.RESPONSE : FingerprintStage.PROMPT, request, 0)); // 5
    }
    List<Row> rows = postings.stream()
        .map(p -> RowFactory.create(p.hash(), p.side(), p.request(), p.tenant())).toList();
    Map<Long, Row> result = new TreeMap<>();
    for (Row row : FingerprintStage.frequencies(
        SharedSpark.session().createDataFrame(rows, FingerprintStage.FINGERPRINT_SCHEMA), 5).collectAsList()) {
      result.put(row.getLong(0), row);
    }
    assertThat(result).containsOnlyKeys(7L, 8L);
    assertThat(result.get(7L).getLong(3)).as("counted all the same").isEqualTo(6);
    assertThat(result.get(7L).isNullAt(5)).isTrue();
    assertThat(decoded(result.get(8L))).isEqualTo(postings.subList(6, 11));
  }

  /** The postings a frequencies row hands on, unpacked. */
  private static List<Posting> decoded(Row row) {
    List<Posting> decoded = new ArrayList<>();
    for (long posting : row.<Long>getList(row.fieldIndex("postings"))) {
      decoded.add(new Posting(row.getLong(0), PostingCounts.side(posting), PostingCounts.request(posting),
          PostingCounts.tenant(posting)));
    }
    return decoded;
  }

  private static Map<Long, List<Posting>> sortedByHash(List<Posting> postings, Set<Long> hashes) {
    Map<Long, List<Posting>> byHash = new TreeMap<>();
    postings.stream().filter(p -> hashes.contains(p.hash()))
        .sorted(Comparator.comparingInt(Posting::request).thenComparingInt(Posting::side))
        .forEach(p -> byHash.computeIfAbsent(p.hash(), h -> new ArrayList<>()).add(p));
    return byHash;
  }

  /**
   * The rows move to their fingerprint's partition once, before anything is counted, and are
   * counted from a sort: no row is expanded per distinct count and no hash table holds every
   * (fingerprint, request), what kept the map side of a few large files in a few tasks at 4 GB and
   * cost twice the CPU of the sorted pass.
   */
  @Test
  void rowsAreHashedToTheirFingerprintOnceAndCountedFromASort() {
    SparkSession spark = SharedSpark.session();
    List<Row> rows = List.of(RowFactory.create(1L, FingerprintStage.RESPONSE, 0, 0),
        RowFactory.create(1L, FingerprintStage.PROMPT, 1, 1));
    String plan = FingerprintStage.frequencies(spark.createDataFrame(rows, FingerprintStage.FINGERPRINT_SCHEMA),
            FingerprintStage.MAX_POSTINGS).queryExecution().executedPlan().toString();
    assertThat(plan).doesNotContain("Expand").doesNotContain("HashAggregate")
        .containsOnlyOnce("Exchange hashpartitioning(hash").contains("Sort [hash");
  }
}

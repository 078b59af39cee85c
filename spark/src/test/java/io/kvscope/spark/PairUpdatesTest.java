package io.kvscope.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sum;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.reach.ReachRule;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * The self-join's pair updates against the same pairs walked posting by posting in plain Java: each
 * recipient (a response holding the fingerprint) against each holder, the own prompt, the tenant and
 * the reach rule asked as the Lucene join asks them; and the same whatever the salting.
 */
class PairUpdatesTest {

  private static final long HORIZON = 1_000;
  /** Node 1's engine restarted once in the middle of the starts. */
  private static final long[][] RESTARTS = {{}, {1_500}, {}};
  private static final PairGroups.Rules RULES = new PairGroups.Rules(true, false, HORIZON);

  private record Posting(long hash, byte side, int request) {}

  private record Request(int tenant, long start, int node, boolean wroteKv) {}

  private final Random random = new Random(11);
  private final List<Request> requests = new ArrayList<>();
  private final List<Posting> postings = new ArrayList<>();

  PairUpdatesTest() {
    for (int request = 0; request < 80; request++) {
      requests.add(new Request(request % 5, random.nextInt(3_000), random.nextInt(4) - 1, random.nextInt(10) > 0));
    }
    Set<List<Object>> seen = new HashSet<>();
    for (int i = 0; i < 1_500; i++) {
      Posting p = new Posting(random.nextInt(25), random.nextBoolean() ? FingerprintStage.RESPONSE : FingerprintStage.PROMPT,
          random.nextInt(requests.size()));
      if (seen.add(List.of(p.hash(), p.side(), p.request()))) { // a request's distinct hashes per side
        postings.add(p);
      }
    }
  }

  /** (recipient, source) -> {via prompt, via response}, walked fingerprint by fingerprint. */
  private Map<List<Integer>, List<Long>> walked() {
    ReachRule rule = new ReachRule(HORIZON, RESTARTS);
    Map<List<Integer>, long[]> counts = new TreeMap<>(java.util.Comparator.comparing(Object::toString));
    for (Posting recipient : postings) {
      if (recipient.side() != FingerprintStage.RESPONSE
          || postings.contains(new Posting(recipient.hash(), FingerprintStage.PROMPT, recipient.request()))) {
        continue;
      }
      Request to = requests.get(recipient.request());
      for (Posting source : postings) {
        Request from = requests.get(source.request());
        if (source.hash() == recipient.hash() && source.request() != recipient.request() && from.tenant() != to.tenant()
            && rule.reaches(from.start(), from.node(), from.wroteKv(), to.start(), to.node())) {
          counts.computeIfAbsent(List.of(recipient.request(), source.request()), k -> new long[2])
              [source.side() == FingerprintStage.PROMPT ? 0 : 1]++;
        }
      }
    }
    Map<List<Integer>, List<Long>> walked = new TreeMap<>(java.util.Comparator.comparing(Object::toString));
    counts.forEach((pair, n) -> walked.put(pair, List.of(n[0], n[1])));
    return walked;
  }

  /** The groups as the job makes them: the postings counted and handed on by stage 5, each fingerprint in {@code salts}. */
  private Dataset<Row> updates(SparkSession spark, int salts) {
    List<Row> fingerprints = postings.stream().map(p -> RowFactory.create(p.hash(), p.side(), p.request(),
        requests.get(p.request()).tenant())).toList();
    Dataset<Row> shared = FingerprintStage.frequencies(
        spark.createDataFrame(fingerprints, FingerprintStage.FINGERPRINT_SCHEMA).coalesce(1), FingerprintStage.MAX_POSTINGS);
    return updates(spark, shared.select(col("hash"), lit(salts).as("salts"), col("postings")));
  }

  private Dataset<Row> updates(SparkSession spark, Dataset<Row> joined) {
    long[] start = new long[requests.size()];
    int[] node = new int[requests.size()];
    boolean[] wroteKv = new boolean[requests.size()];
    for (int i = 0; i < requests.size(); i++) {
      start[i] = requests.get(i).start();
      node[i] = requests.get(i).node();
      wroteKv[i] = requests.get(i).wroteKv();
    }
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    PairStage.Counters counters = new PairStage.Counters(spark.sparkContext().longAccumulator(),
        spark.sparkContext().longAccumulator());
    return PairStage.updates(joined, RULES, context.broadcast(RESTARTS),
        context.broadcast(new ReachStage.Columns(start, node, wroteKv)), counters);
  }

  private Map<List<Integer>, List<Long>> summed(Dataset<Row> updates) {
    Map<List<Integer>, List<Long>> pairs = new TreeMap<>(java.util.Comparator.comparing(Object::toString));
    for (Row row : updates.groupBy("recipient", "source").agg(sum("via_prompt"), sum("via_response")).collectAsList()) {
      pairs.put(List.of(row.getInt(0), row.getInt(1)), List.of(row.getLong(2), row.getLong(3)));
    }
    return pairs;
  }

  @Test
  void everyRecipientMeetsEveryHolderItsRulesAllowOnceWhateverTheSalting() {
    SparkSession spark = SharedSpark.session();
    Map<List<Integer>, List<Long>> expected = walked();
    assertThat(expected).hasSizeGreaterThan(100);
    assertThat(summed(updates(spark, 1))).isEqualTo(expected);
    assertThat(summed(updates(spark, 3))).as("recipients dealt over 3 groups, sources copied to each").isEqualTo(expected);
  }

  /**
   * A fingerprint's groups move once, by (hash, salt), each with its postings: no posting is joined
   * to its request or sorted into its group again.
   */
  @Test
  void eachGroupMovesOnceWithItsPostings() {
    SparkSession spark = SharedSpark.session();
    Dataset<Row> joined = spark.createDataFrame(List.of(RowFactory.create(1L, 2, new long[] {1L << 32, 2L << 32 | 1L << 31})),
        new StructType().add("hash", DataTypes.LongType, false).add("salts", DataTypes.IntegerType, false)
            .add("postings", DataTypes.createArrayType(DataTypes.LongType, false), true));
    String plan = updates(spark, joined).queryExecution().executedPlan().toString();
    assertThat(plan).doesNotContain("Join").doesNotContain("Sort")
        .containsOnlyOnce("Exchange hashpartitioning(hash");
  }
}

package io.kvscope.spark;

import static org.apache.spark.sql.functions.ceil;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.pmod;
import static org.apache.spark.sql.functions.sequence;
import static org.apache.spark.sql.functions.sum;

import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.model.reach.ReachRule;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapGroupsFunction;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.LongAccumulator;
import scala.Tuple2;

/**
 * Stage 7, the fingerprint self-join with the reach rule pushed in: the candidate pairs (request
 * level: recipient, source) and how many fingerprints each shares with the source's prompt and
 * response, as kvscope's Lucene {@code FingerprintJoin} counts them under the same options and the
 * same pair filter.
 *
 * <p>A fingerprint's cost is known before the join, from {@code frequencies/}: its recipients ×
 * (prompts + recipients) pair updates. Fingerprints of more tenants than the learned cut-off are
 * boilerplate and those costing more than the options' bound are skipped (the document-frequency
 * guard), both before any posting moves. A popular fingerprint is salted: its recipients are dealt
 * over {@code ceil(cost / saltWork)} groups and its sources copied to each, so no group holds more
 * than about {@code saltWork} updates however skewed the text.
 *
 * <p>Within a group each recipient meets each source, and the reach rule ({@link ReachRule}: the
 * source started earlier within the horizon, on the recipient's decode node and in the same run of
 * its engine, and wrote KV) decides before the pair is counted, as the Lucene join's pair filter
 * does. A recipient whose own prompt holds the fingerprint is explained by it when the options say
 * so.
 */
final class PairStage {

  static final String FOLDER = "pairs";

  /** Pair updates one group takes before a fingerprint is salted. */
  static final long SALT_WORK = 1L << 16;

  static final StructType SCHEMA = new StructType()
      .add("recipient", DataTypes.IntegerType, false)
      .add("source", DataTypes.IntegerType, false)
      .add("shared_prompt", DataTypes.LongType, false)
      .add("shared_response", DataTypes.LongType, false);

  private static final StructType UPDATE = new StructType()
      .add("recipient", DataTypes.IntegerType, false)
      .add("source", DataTypes.IntegerType, false)
      .add("via_prompt", DataTypes.IntegerType, false)
      .add("via_response", DataTypes.IntegerType, false);

  /**
   * What the join did: candidate pairs, and fingerprints skipped, joined and salted; the reach rule's
   * tests (recipient against source, within a group) and the pair updates it let through. The last
   * two are accumulators, which count a retried task again: figures for the bench, not for a report.
   */
  record Result(long pairs, long skippedBoilerplate, long skippedByPairs, long joined, long salted, long tests,
      long updates) {}

  /** The join options a task needs, and the source horizon (JoinOptions itself does not travel). */
  private record Rules(boolean ownPromptExplains, boolean includeSameTenant, long horizonMillis)
      implements java.io.Serializable {}

  /** What the groups did, summed on the driver: pairs the reach rule was asked about, and pairs it let through. */
  private record Counters(LongAccumulator tests, LongAccumulator updates) implements java.io.Serializable {}

  /** One posting of a fingerprint: its request, side and tenant, and what the reach rule reads of the request. */
  private record Posting(int request, byte side, int tenant, long start, int node, boolean wroteKv) {}

  private PairStage() {}

  static Result run(SparkSession spark, String out, JoinOptions options, ReachStage.Nodes nodes, long horizonMillis,
      long saltWork) {
    Dataset<Row> frequencies = spark.read().parquet(out + "/" + FingerprintStage.FREQUENCY_FOLDER)
        .withColumn("work", col("n_resp").multiply(col("n_prompt").plus(col("n_resp"))));
    Dataset<Row> boilerplate = frequencies.where(col("tenants").gt(options.maxTenantFrequency()));
    Dataset<Row> kept = frequencies.where(col("tenants").leq(options.maxTenantFrequency()));
    if (!options.includeSameTenant()) {
      kept = kept.where(col("tenants").geq(2));
    }
    Dataset<Row> tooCostly = kept.where(col("work").gt(options.maxPairsPerTerm()));
    Dataset<Row> joined = kept.where(col("work").leq(options.maxPairsPerTerm()))
        .select(col("hash"), least(col("n_resp"), greatest(lit(1L), ceil(col("work").divide(saltWork))))
            .cast(DataTypes.IntegerType).as("salts"));

    Dataset<Row> postings = spark.read().schema(FingerprintStage.FINGERPRINT_SCHEMA)
        .parquet(out + "/" + FingerprintStage.FINGERPRINT_FOLDER)
        .join(joined, "hash")
        .join(spark.read().schema(ReachStage.SCHEMA).parquet(out + "/" + ReachStage.FOLDER)
            .withColumnRenamed("ordinal", "request"), "request");
    // A recipient goes to one salt; every holder, as a source, to each salt of its fingerprint.
    Dataset<Row> asRecipients = postings.where(col("side").equalTo(FingerprintStage.RESPONSE))
        .withColumn("salt", pmod(col("request"), col("salts"))).withColumn("recipient", lit(true));
    Dataset<Row> asSources = postings.withColumn("salt", explode(sequence(lit(0), col("salts").minus(1))))
        .withColumn("recipient", lit(false));
    Broadcast<long[][]> restarts = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(nodes.restarts());
    Counters counters = new Counters(spark.sparkContext().longAccumulator("kvscope pair tests"),
        spark.sparkContext().longAccumulator("kvscope pair updates"));
    try {
      Dataset<Row> updates = asRecipients.unionByName(asSources)
          .groupByKey((MapFunction<Row, Tuple2<Long, Integer>>) row ->
              new Tuple2<>(row.<Long>getAs("hash"), row.<Integer>getAs("salt")), Encoders.tuple(Encoders.LONG(), Encoders.INT()))
          .flatMapGroups(pairsOf(new Rules(options.ownPromptExplains(), options.includeSameTenant(), horizonMillis),
              restarts, counters), Encoders.row(UPDATE));
      Dataset<Row> pairs = updates.groupBy("recipient", "source")
          .agg(sum("via_prompt").as("shared_prompt"), sum("via_response").as("shared_response"))
          .where(col("shared_prompt").plus(col("shared_response")).geq(options.minSharedFingerprints()));
      Stages.write(pairs, out, FOLDER);
    } finally {
      restarts.destroy();
    }
    return new Result(spark.read().parquet(out + "/" + FOLDER).count(), boilerplate.count(), tooCostly.count(),
        joined.count(), joined.where(col("salts").gt(1)).count(), counters.tests().value(), counters.updates().value());
  }

  /** One group of one fingerprint: each of its recipients against each of its sources, as the Lucene join walks a term. */
  private static FlatMapGroupsFunction<Tuple2<Long, Integer>, Row, Row> pairsOf(Rules rules,
      Broadcast<long[][]> restarts, Counters counters) {
    return (key, rows) -> {
      ReachRule rule = new ReachRule(rules.horizonMillis(), restarts.value());
      List<Posting> recipients = new ArrayList<>();
      List<Posting> prompts = new ArrayList<>();
      List<Posting> responses = new ArrayList<>();
      while (rows.hasNext()) {
        Row row = rows.next();
        Posting posting = new Posting(row.getAs("request"), row.getAs("side"), row.getAs("tenant"), row.getAs("start"),
            row.getAs("decode_node"), row.getAs("wrote_kv"));
        if (row.<Boolean>getAs("recipient")) {
          recipients.add(posting);
        } else {
          (posting.side() == FingerprintStage.PROMPT ? prompts : responses).add(posting);
        }
      }
      recipients.sort(Comparator.comparingInt(Posting::request));
      Set<Integer> ownPrompts = new HashSet<>();
      prompts.forEach(p -> ownPrompts.add(p.request()));
      List<Row> updates = new ArrayList<>();
      for (Posting recipient : recipients) {
        if (rules.ownPromptExplains() && ownPrompts.contains(recipient.request())) {
          continue;
        }
        counters.tests().add(prompts.size() + responses.size());
        for (Posting source : prompts) {
          if (accepts(rules, rule, recipient, source)) {
            updates.add(RowFactory.create(recipient.request(), source.request(), 1, 0));
          }
        }
        for (Posting source : responses) {
          if (accepts(rules, rule, recipient, source)) {
            updates.add(RowFactory.create(recipient.request(), source.request(), 0, 1));
          }
        }
      }
      counters.updates().add(updates.size());
      return updates.iterator();
    };
  }

  /** The Lucene join's pair test: never itself, another tenant unless same-tenant pairs are wanted, and the reach. */
  private static boolean accepts(Rules rules, ReachRule rule, Posting recipient, Posting source) {
    if (source.request() == recipient.request()) {
      return false;
    }
    if (!rules.includeSameTenant() && recipient.tenant() == source.tenant()) {
      return false;
    }
    return rule.reaches(source.start(), source.node(), source.wroteKv(), recipient.start(), recipient.node());
  }
}

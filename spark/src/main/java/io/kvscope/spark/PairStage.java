package io.kvscope.spark;

import static org.apache.spark.sql.functions.ceil;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.greatest;
import static org.apache.spark.sql.functions.least;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.sequence;
import static org.apache.spark.sql.functions.sum;

import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.model.reach.ReachRule;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.LongAccumulator;

/**
 * Stage 7, the fingerprint self-join with the reach rule pushed in: the candidate pairs (request
 * level: recipient, source) and how many fingerprints each shares with the source's prompt and
 * response, as kvscope's Lucene {@code FingerprintJoin} counts them under the same options and the
 * same pair filter.
 *
 * <p>The join reads {@code frequencies/}, where each shared fingerprint's row has its counts and
 * its postings, so no fingerprint row is read or joined again. A fingerprint's cost is known from
 * its counts: its recipients × (prompts + recipients) pair updates. Fingerprints of more tenants
 * than the learned cut-off are boilerplate and those costing more than the options' bound are
 * skipped (the document-frequency guard), both before any posting moves. A popular fingerprint is salted: its recipients are dealt
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

  /** What the groups did, summed on the driver: pairs the reach rule was asked about, and pairs it let through. */
  record Counters(LongAccumulator tests, LongAccumulator updates) implements java.io.Serializable {}

  private PairStage() {}

  static Result run(SparkSession spark, String out, JoinOptions options, ReachStage.Nodes nodes, long horizonMillis,
      long saltWork, long requests) {
    if (options.maxPairsPerTerm() > FingerprintStage.MAX_POSTINGS) {
      throw new IllegalArgumentException("a pair bound of " + options.maxPairsPerTerm() + " needs more postings than "
          + FingerprintStage.FREQUENCY_FOLDER + "/ hands on (" + FingerprintStage.MAX_POSTINGS + ")");
    }
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
            .cast(DataTypes.IntegerType).as("salts"), col("postings"));

    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    Broadcast<long[][]> restarts = context.broadcast(nodes.restarts());
    Broadcast<ReachStage.Columns> reach = context.broadcast(ReachStage.Columns.read(spark, out, requests));
    Counters counters = new Counters(spark.sparkContext().longAccumulator("kvscope pair tests"),
        spark.sparkContext().longAccumulator("kvscope pair updates"));
    PairGroups.Rules rules = new PairGroups.Rules(options.ownPromptExplains(), options.includeSameTenant(), horizonMillis);
    try {
      Dataset<Row> pairs = updates(joined, rules, restarts, reach, counters).groupBy("recipient", "source")
          .agg(sum("via_prompt").as("shared_prompt"), sum("via_response").as("shared_response"))
          .where(col("shared_prompt").plus(col("shared_response")).geq(options.minSharedFingerprints()));
      Stages.write(pairs, out, FOLDER);
    } finally {
      restarts.destroy();
      reach.destroy();
    }
    return new Result(spark.read().parquet(out + "/" + FOLDER).count(), boilerplate.count(), tooCostly.count(),
        joined.count(), joined.where(col("salts").gt(1)).count(), counters.tests().value(), counters.updates().value());
  }

  /**
   * The pair updates of every group: each {@code joined} fingerprint (hash, salts, postings, as
   * {@code frequencies/} hands them on) becomes one group per salt, which moves once, by (hash,
   * salt), with its postings. A group's recipients are the responses whose ordinal falls to its salt;
   * every holder is a source in each. What the reach rule reads of a request comes from {@code
   * reach} by ordinal ({@link PairGroups}).
   */
  static Dataset<Row> updates(Dataset<Row> joined, PairGroups.Rules rules, Broadcast<long[][]> restarts,
      Broadcast<ReachStage.Columns> reach, Counters counters) {
    return joined.select(col("hash"), explode(sequence(lit(0), col("salts").minus(1))).as("salt"), col("salts"),
            col("postings"))
        .repartition(col("hash"), col("salt"))
        .mapPartitions((MapPartitionsFunction<Row, Row>) groups -> new PairGroups(groups, rules,
            new ReachRule(rules.horizonMillis(), restarts.value()), reach.value(), counters), Encoders.row(UPDATE));
  }
}

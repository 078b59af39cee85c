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
import static org.apache.spark.sql.functions.when;

import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.model.reach.ReachRule;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Column;
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

  /** What the groups did, summed on the driver: pairs the reach rule was asked about, and pairs it let through. */
  record Counters(LongAccumulator tests, LongAccumulator updates) implements java.io.Serializable {}

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

    Dataset<Row> fingerprints = spark.read().schema(FingerprintStage.FINGERPRINT_SCHEMA)
        .parquet(out + "/" + FingerprintStage.FINGERPRINT_FOLDER);
    Dataset<Row> reach = spark.read().schema(ReachStage.SCHEMA).parquet(out + "/" + ReachStage.FOLDER);
    Broadcast<long[][]> restarts = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(nodes.restarts());
    Counters counters = new Counters(spark.sparkContext().longAccumulator("kvscope pair tests"),
        spark.sparkContext().longAccumulator("kvscope pair updates"));
    PairGroups.Rules rules = new PairGroups.Rules(options.ownPromptExplains(), options.includeSameTenant(), horizonMillis);
    try {
      Dataset<Row> pairs = updates(fingerprints, joined, reach, rules, restarts, counters).groupBy("recipient", "source")
          .agg(sum("via_prompt").as("shared_prompt"), sum("via_response").as("shared_response"))
          .where(col("shared_prompt").plus(col("shared_response")).geq(options.minSharedFingerprints()));
      Stages.write(pairs, out, FOLDER);
    } finally {
      restarts.destroy();
    }
    return new Result(spark.read().parquet(out + "/" + FOLDER).count(), boilerplate.count(), tooCostly.count(),
        joined.count(), joined.where(col("salts").gt(1)).count(), counters.tests().value(), counters.updates().value());
  }

  /**
   * The pair updates of every group: {@code fingerprints} (as {@code fingerprints/}) read once, each
   * posting of a {@code joined} fingerprint (hash, salts) with what {@code reach} (as {@code reach/})
   * says of its request, one row per group it goes to. A recipient goes to one salt, by its ordinal;
   * every holder, as a source, to each salt of its fingerprint. Only what a group reads moves, once,
   * by (hash, salt), and the groups are read from a sort within each partition ({@link PairGroups}).
   */
  static Dataset<Row> updates(Dataset<Row> fingerprints, Dataset<Row> joined, Dataset<Row> reach,
      PairGroups.Rules rules, Broadcast<long[][]> restarts, Counters counters) {
    Column copy = col("copy"); // -1: a response's recipient row; 0 to salts - 1: a source's copy
    Dataset<Row> copies = fingerprints.join(joined, "hash")
        .join(reach.withColumnRenamed("ordinal", "request"), "request")
        .withColumn("copy", explode(sequence(
            when(col("side").equalTo(FingerprintStage.RESPONSE), lit(-1)).otherwise(lit(0)), col("salts").minus(1))))
        .select(col("hash"),
            when(copy.equalTo(-1), pmod(col("request"), col("salts"))).otherwise(copy).as("salt"),
            when(copy.equalTo(-1), lit(PairGroups.RECIPIENT)).otherwise(col("side")).as("role"),
            col("request"), col("tenant"), col("start"), col("decode_node"), col("wrote_kv"));
    return copies.repartition(col("hash"), col("salt")).sortWithinPartitions("hash", "salt")
        .mapPartitions((MapPartitionsFunction<Row, Row>) rows ->
            new PairGroups(rows, rules, new ReachRule(rules.horizonMillis(), restarts.value()), counters),
            Encoders.row(UPDATE));
  }
}

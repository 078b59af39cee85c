package io.kvscope.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.row_number;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.unix_millis;

import io.kvscope.model.join.EngineFacts;
import io.kvscope.index.nodes.Epochs;
import io.kvscope.model.join.EngineFill;
import io.kvscope.index.nodes.NodeClocks;
import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.model.fingerprint.HashMixing;
import io.kvscope.model.reach.ReachRule;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * What the model's {@link ReachRule} reads of each request, by request ordinal: its start on the
 * gateway's clock, its decode node and whether it wrote KV; and, on the driver, each decode node's
 * engine restarts. This is what the fingerprint self-join asks per posting, as the single-machine
 * analysis asks its request columns.
 *
 * <p>The decode node is the linked request's ({@link EngineFill#onto}: the gateway's word,
 * else the engines'). Restarts are the node's config epochs ({@link Epochs#restarts}) placed on the
 * gateway's clock by the node clocks, learned here as the single-machine join learns them: per
 * node, the median of (its first line about a request) - (the gateway's start of it) over the
 * {@link NodeClocks#MAX_SAMPLES} requests whose ids hash lowest. Tasks cut each node's offsets to
 * that sample, so only nodes × samples rows reach the driver.
 *
 * <p>Whether a request wrote KV (it was neither turned away nor left unprefilled) comes from the
 * mechanisms, a later stage: until then every request counts as having written its pages, which
 * keeps every pair the rule would otherwise allow.
 */
final class ReachStage {

  static final String FOLDER = "reach";

  static final StructType SCHEMA = new StructType()
      .add("ordinal", DataTypes.IntegerType, false)
      .add("start", DataTypes.LongType, false)
      .add("decode_node", DataTypes.IntegerType, false)
      .add("wrote_kv", DataTypes.BooleanType, false);

  /** The request ids' stable hash, the key of {@link io.kvscope.model.order.StableSample}. */
  private static final UserDefinedFunction STABLE_HASH =
      udf((UDF1<String, Long>) HashMixing::ofText, DataTypes.LongType);

  /**
   * The driver's half of the rule: the decode nodes by ordinal (as in {@code reach/}), each one's
   * restarts on the gateway's clock, and the clocks they were placed by, as learned (whose
   * documents the index keeps).
   */
  record Nodes(List<String> names, long[][] restarts, NodeClocks.Learner learned) {
    NodeClocks clocks() {
      return learned.clocks();
    }
  }

  /**
   * {@code reach/} as arrays indexed by request ordinal, for every task of the self-join: 13 bytes a
   * request (1.7 MB at 130,000 requests), where a join would move every posting to its request.
   */
  record Columns(long[] start, int[] decodeNode, boolean[] wroteKv) implements java.io.Serializable {

    static Columns read(SparkSession spark, String out, long requests) {
      int n = Math.toIntExact(requests);
      Columns columns = new Columns(new long[n], new int[n], new boolean[n]);
      Iterator<Row> rows = spark.read().schema(SCHEMA).parquet(out + "/" + FOLDER).toLocalIterator();
      long read = 0;
      while (rows.hasNext()) {
        Row row = rows.next();
        int ordinal = row.getInt(0);
        columns.start[ordinal] = row.getLong(1);
        columns.decodeNode[ordinal] = row.getInt(2);
        columns.wroteKv[ordinal] = row.getBoolean(3);
        read++;
      }
      if (read != n) {
        throw new IllegalStateException(FOLDER + "/ has " + read + " rows for " + n + " requests");
      }
      return columns;
    }
  }

  private ReachStage() {}

  static Nodes run(SparkSession spark, String out) {
    String start = CanonicalField.START_TIME.column();
    String id = CanonicalField.REQUEST_ID.column();
    String decode = CanonicalField.DECODE_NODE.column();
    Dataset<Row> requests = spark.read().schema(RequestRows.SCHEMA).parquet(out + "/" + MergeStage.FOLDER)
        .select(MergeStage.mergeKey().as(MergeStage.KEY), col(id), col(start), col(decode));
    Dataset<Row> facts = spark.read().schema(EngineFactsStage.SCHEMA).parquet(out + "/" + EngineFactsStage.FOLDER);

    NodeClocks.Learner learned = clocks(requests, facts);
    NodeClocks clocks = learned.clocks();
    Epochs epochs = EpochRows.read(spark, out).build(clocks);

    Dataset<Row> order = spark.read().schema(FingerprintStage.ORDER_SCHEMA).parquet(out + "/" + FingerprintStage.ORDER_FOLDER)
        .select(col("ordinal"), col(MergeStage.KEY));
    Dataset<Row> linked = order.join(requests, MergeStage.KEY).join(facts, MergeStage.KEY, "left")
        .map(linkedDecodeNode(), Encoders.row(new StructType().add("ordinal", DataTypes.IntegerType, false)
            .add("start", DataTypes.LongType, false).add("node_name", DataTypes.StringType)))
        .cache();
    try {
      List<String> names = linked.select("node_name").where(col("node_name").isNotNull()).distinct().orderBy("node_name")
          .collectAsList().stream().map(row -> row.getString(0)).toList();
      long[][] restarts = new long[names.size()][];
      Map<String, Integer> ordinals = new HashMap<>();
      for (int node = 0; node < names.size(); node++) {
        restarts[node] = epochs.restarts(names.get(node));
        ordinals.put(names.get(node), node);
      }
      Broadcast<Map<String, Integer>> nodeOrdinal =
          JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(ordinals);
      Stages.write(linked.map((MapFunction<Row, Row>) row -> {
        String node = row.getString(2);
        return RowFactory.create(row.getInt(0), row.getLong(1),
            node == null ? ReachRule.UNKNOWN_NODE : nodeOrdinal.value().get(node), true);
      }, Encoders.row(SCHEMA)), out, FOLDER);
      nodeOrdinal.destroy();
      return new Nodes(names, restarts, learned);
    } finally {
      linked.unpersist();
    }
  }

  /** A request's ordinal, start (the earliest time when unknown, as the analysis reads it) and linked decode node. */
  private static MapFunction<Row, Row> linkedDecodeNode() {
    return row -> {
      RequestRecord gateway = RequestRecord.builder(row.getAs(CanonicalField.REQUEST_ID.column()))
          .decodeNode(row.getAs(CanonicalField.DECODE_NODE.column())).build();
      Row factsRow = row.getAs("facts");
      RequestRecord request = factsRow == null ? gateway
          : EngineFill.onto(gateway, EngineFactsStage.FACTS.fromRow(factsRow));
      java.sql.Timestamp start = row.getAs(CanonicalField.START_TIME.column());
      return RowFactory.create(row.<Integer>getAs("ordinal"), start == null ? Long.MIN_VALUE : start.getTime(),
          request.decodeNode());
    };
  }

  /** The node clocks, from each node's offsets over its stable sample of requests. */
  private static NodeClocks.Learner clocks(Dataset<Row> requests, Dataset<Row> facts) {
    Dataset<Row> offsets = facts.select(col(MergeStage.KEY), explode(col("first_seen")).as("seen"))
        .join(requests.where(col(CanonicalField.START_TIME.column()).isNotNull()), MergeStage.KEY)
        .select(col("seen.node").as("node"), col(CanonicalField.REQUEST_ID.column()).as("request_id"),
            col("seen.time").minus(unix_millis(col(CanonicalField.START_TIME.column()))).as("offset"))
        .withColumn("hash", STABLE_HASH.apply(col("request_id")))
        .withColumn("n", row_number().over(Window.partitionBy("node").orderBy("hash", "request_id")))
        .where(col("n").leq(NodeClocks.MAX_SAMPLES));
    NodeClocks.Learner learner = new NodeClocks.Learner();
    for (Row row : offsets.select("node", "request_id", "offset").collectAsList()) {
      learner.observe(row.getString(0), row.getString(1), row.getLong(2), 0);
    }
    return learner;
  }
}

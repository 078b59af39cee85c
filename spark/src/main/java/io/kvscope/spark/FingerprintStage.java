package io.kvscope.spark;

import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.udf;

import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.model.finding.Tenants;
import io.kvscope.model.fingerprint.BoilerplateCutoff;
import io.kvscope.model.fingerprint.Fingerprinter;
import io.kvscope.model.fingerprint.FrequencyHistogram;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Stages 4 and 5: fingerprints, then their frequencies and the learned boilerplate cut-off.
 *
 * <p>Requests get dense ordinals from a sort by kvscope's {@link io.kvscope.model.order.RequestOrder}
 * (start, then request id; the merge key, unique per request, breaks what ties remain), so later
 * shuffles carry ints. Only the small ordering columns are sorted. The texts are fingerprinted with
 * kvscope's own {@link Fingerprinter} in the pass that writes the requests' shards, which has each
 * request's ordinal and tenant: a text's fingerprints are its distinct hashes per side, the terms
 * its document gets, computed once for both ({@link ShardStage#requests}).
 *
 * <p>The frequencies are the Lucene join's: a fingerprint is shared when some response has it and
 * at least two requests have it (prompt or response); its tenants are the distinct tenants of those
 * requests, a request without one counting as {@link Tenants#UNKNOWN}. Only the histogram of tenant
 * frequencies goes to the driver, which learns the cut-off by {@link BoilerplateCutoff}. Each shared
 * fingerprint's row carries its postings too, which the self-join reads in place of {@code
 * fingerprints/}: most fingerprints are held by one request and never reach it.
 */
final class FingerprintStage {

  static final String ORDER_FOLDER = "request_order";
  static final String TENANT_FOLDER = "tenants";
  static final String FINGERPRINT_FOLDER = "fingerprints";
  static final String FREQUENCY_FOLDER = "frequencies";

  /**
   * The most postings a {@code frequencies/} row hands on. A fingerprint of more costs more pair
   * updates than the self-join's bound (each posting is at least one, and some response holds it),
   * so the join skips it whatever the cut-off; {@link PairStage} refuses a larger bound.
   */
  static final int MAX_POSTINGS = Math.toIntExact(JoinOptions.defaults().maxPairsPerTerm());

  /** Side of a fingerprint: in the prompt or in the response. */
  static final byte PROMPT = 0;
  static final byte RESPONSE = 1;

  static final StructType ORDER_SCHEMA = new StructType()
      .add("ordinal", DataTypes.IntegerType, false)
      .add("request_id", DataTypes.StringType)
      .add("start_time", DataTypes.TimestampType)
      .add("tenant", DataTypes.IntegerType, false)
      .add(MergeStage.KEY, DataTypes.StringType, false)
      .add(MergeStage.TEXT_BYTES, DataTypes.LongType, false);

  static final StructType FINGERPRINT_SCHEMA = new StructType()
      .add("hash", DataTypes.LongType, false)
      .add("side", DataTypes.ByteType, false)
      .add("request", DataTypes.IntegerType, false)
      .add("tenant", DataTypes.IntegerType, false);

  private static final UserDefinedFunction TENANT_NAME =
      udf((UDF1<String, String>) Tenants::nameOf, DataTypes.StringType);

  /** What the driver learned: the shared fingerprints' histogram and the cut-off from it. */
  record Result(long requests, long fingerprintRows, FrequencyHistogram histogram, int cutoff) {}

  private FingerprintStage() {}

  /**
   * Stage 4's first half: the tenants and the request order. The fingerprints themselves are
   * computed in the pass that writes the requests' shards ({@link ShardStage#requests}), which
   * reads every text once for both.
   */
  static void order(SparkSession spark, String out) {
    Dataset<Row> requests = spark.read().schema(MergeStage.SCHEMA_WITH_SIZE).parquet(out + "/" + MergeStage.FOLDER);
    List<String> tenants = tenantNames(requests);
    Stages.write(spark, ordinalRows(tenants), TENANT_SCHEMA, out, TENANT_FOLDER);
    Broadcast<Map<String, Integer>> tenantOrdinal =
        JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(ordinals(tenants));
    Stages.write(requestOrder(spark, requests, tenantOrdinal), out, ORDER_FOLDER);
    tenantOrdinal.destroy();
  }

  /** Stage 5: the frequencies of {@code fingerprints/} and the cut-off the driver learns from them. */
  static Result frequencies(SparkSession spark, String out) {
    Dataset<Row> stored = spark.read().schema(FINGERPRINT_SCHEMA).parquet(out + "/" + FINGERPRINT_FOLDER);
    Stages.write(frequencies(stored, MAX_POSTINGS), out, FREQUENCY_FOLDER);

    FrequencyHistogram histogram = BoilerplateCutoff.histogram();
    for (Row bucket : spark.read().parquet(out + "/" + FREQUENCY_FOLDER).groupBy("tenants")
        .agg(count(lit(1)).as("n"), max("docs").as("max_docs")).collectAsList()) {
      // A bucket's terms all go in with its highest document frequency: the histogram keeps only the maximum.
      int maxDocs = (int) bucket.getLong(bucket.fieldIndex("max_docs"));
      int tenantFrequency = (int) bucket.getLong(bucket.fieldIndex("tenants"));
      for (long i = bucket.getLong(bucket.fieldIndex("n")); i > 0; i--) {
        histogram.onSharedTerm(maxDocs, tenantFrequency);
      }
    }
    long requests = spark.read().schema(ORDER_SCHEMA).parquet(out + "/" + ORDER_FOLDER).count();
    return new Result(requests, stored.count(), histogram, BoilerplateCutoff.learn(histogram));
  }

  /**
   * One row of {@code frequencies/}: a shared fingerprint's postings counted, and the postings
   * themselves ({@link PostingCounts#posting()}, sorted), null beyond the most a row hands on.
   */
  static final StructType FREQUENCY_SCHEMA = new StructType()
      .add("hash", DataTypes.LongType, false)
      .add("n_resp", DataTypes.LongType, false)
      .add("n_prompt", DataTypes.LongType, false)
      .add("docs", DataTypes.LongType, false)
      .add("tenants", DataTypes.LongType, false)
      .add("postings", DataTypes.createArrayType(DataTypes.LongType, false), true);

  /**
   * Each shared fingerprint's postings: responses and prompts holding it, documents and tenants.
   * The rows are hashed to their fingerprint's partition before anything is counted, so the work
   * is spread by key whatever the files of {@code fingerprints/} (at 4 GB two tasks reading a few
   * large files once ran the map side of two distinct counts for a quarter of an hour). Within a
   * partition they are sorted by fingerprint and request and counted in one pass ({@link
   * PostingCounts}): no hash table of every (fingerprint, request) and no distinct count's
   * expansion, the two aggregations this pass replaced. The request, side and tenant move packed
   * in one long ({@link PostingCounts#posting()}), and a shared fingerprint's row keeps them, when
   * there are at most {@code maxPostings}.
   */
  static Dataset<Row> frequencies(Dataset<Row> fingerprints, int maxPostings) {
    return fingerprints.select(col("hash"), PostingCounts.posting().as("posting"))
        .repartition(col("hash")).sortWithinPartitions("hash", "posting")
        .mapPartitions((MapPartitionsFunction<Row, Row>) sorted -> PostingCounts.shared(sorted, maxPostings),
            Encoders.row(FREQUENCY_SCHEMA));
  }

  static final StructType TENANT_SCHEMA = new StructType()
      .add("ordinal", DataTypes.IntegerType, false)
      .add("name", DataTypes.StringType, false);

  /** The distinct tenant names, sorted: few enough for the driver (tenants, not requests). */
  private static List<String> tenantNames(Dataset<Row> requests) {
    return requests.select(TENANT_NAME.apply(col(CanonicalField.TENANT.column())).as("name")).distinct()
        .orderBy("name").collectAsList().stream().map(row -> row.getString(0)).toList();
  }

  private static List<Row> ordinalRows(List<String> tenants) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < tenants.size(); i++) {
      rows.add(RowFactory.create(i, tenants.get(i)));
    }
    return rows;
  }

  private static Map<String, Integer> ordinals(List<String> tenants) {
    Map<String, Integer> ordinals = new HashMap<>();
    for (int i = 0; i < tenants.size(); i++) {
      ordinals.put(tenants.get(i), i);
    }
    return ordinals;
  }

  /**
   * The requests' ordering columns sorted by (start, request id, merge key), numbered from 0, with
   * each request's texts' size. A missing start sorts first and a missing id as empty, as in {@code RequestOrder}.
   */
  private static Dataset<Row> requestOrder(SparkSession spark, Dataset<Row> requests,
      Broadcast<Map<String, Integer>> tenantOrdinal) {
    String id = CanonicalField.REQUEST_ID.column();
    String start = CanonicalField.START_TIME.column();
    Dataset<Row> sorted = requests.select(col(id), col(start), TENANT_NAME.apply(col(CanonicalField.TENANT.column()))
            .as("tenant_name"), MergeStage.mergeKey().as(MergeStage.KEY), col(MergeStage.TEXT_BYTES))
        .orderBy(col(start).asc_nulls_first(), coalesce(col(id), lit("")), col(MergeStage.KEY));
    JavaRDD<Row> numbered = sorted.javaRDD().zipWithIndex().map(pair -> {
      Row row = pair._1();
      if (pair._2() > Integer.MAX_VALUE) {
        throw new IllegalStateException("more requests than int ordinals");
      }
      return RowFactory.create(pair._2().intValue(), row.get(0), row.get(1),
          tenantOrdinal.value().get(row.getString(2)), row.get(3), row.get(4));
    });
    return spark.createDataFrame(numbered, ORDER_SCHEMA);
  }
}

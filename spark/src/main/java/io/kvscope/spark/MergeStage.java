package io.kvscope.spark;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.coalesce;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.octet_length;
import static org.apache.spark.sql.functions.udf;
import static org.apache.spark.sql.functions.when;

import io.kvscope.ingest.merge.RequestMerge;
import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.api.java.function.MapGroupsFunction;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Stage 3, merge: the records of one request (a gateway line and a trace span of the same call)
 * become one by kvscope's own {@link RequestMerge} rule. Texts are never grouped blindly: first only
 * the keys are shuffled, to find those with more than one record (a few in thousands); the records
 * of the others pass through untouched (the merge of one record is that record), and only the
 * records under a shared key are grouped and merged. The records come from the ingest's cached
 * pass ({@link IngestStage.Pass}), so no text is read back from {@code records/}; the shared keys'
 * records are written aside once ({@link #MERGED_RECORDS}), for this merge and for the shards.
 * Writes {@code requests/}, each request with its texts' size ({@link #TEXT_BYTES}).
 */
final class MergeStage {

  static final String FOLDER = "requests";
  /**
   * The records under a key with more than one record, as read: what the merge groups, and what
   * the requests' shards (stage 9) add as each merged request's records. A few hundred rows, so
   * that neither reads every text again to find them.
   */
  static final String MERGED_RECORDS = "merged_records";
  static final String KEY = "merge_key";
  /**
   * A request's prompt and response in UTF-8 bytes, a column of {@code requests/} beyond {@link
   * RequestRows#SCHEMA} (readers of that schema do not see it): the request order carries it to
   * where the requests' shards are cut ({@link ShardBounds}). Counted here, where every text is in
   * hand and a string knows its length, not by reading the texts once more.
   */
  static final String TEXT_BYTES = "text_bytes";
  /** {@code requests/}'s columns with {@link #TEXT_BYTES}. */
  static final StructType SCHEMA_WITH_SIZE = RequestRows.SCHEMA.add(TEXT_BYTES, DataTypes.LongType, false);
  private static final String SHARED = "shared_key";

  /** {@link RequestMerge#keyOf}, the single-machine key, on the two columns it reads. */
  private static final UserDefinedFunction KEY_OF = udf((UDF2<String, String, String>) (requestId, engineRid) ->
      RequestMerge.keyOf(RequestRecord.builder(requestId).engineRid(engineRid).build()), DataTypes.StringType);

  private MergeStage() {}

  /** The merge key of a row of records or requests; after the merge it names one request. */
  static Column mergeKey() {
    return mergeKeyIn("");
  }

  /** The merge key of the record in the struct column {@code struct}, null where that is null. */
  static Column mergeKeyOf(String struct) {
    return when(col(struct).isNotNull(), mergeKeyIn(struct + "."));
  }

  private static Column mergeKeyIn(String prefix) {
    return KEY_OF.apply(col(prefix + CanonicalField.REQUEST_ID.column()), col(prefix + CanonicalField.ENGINE_RID.column()));
  }

  /** {@link #MERGED_RECORDS} with each record's {@link #KEY}. */
  static Dataset<Row> mergedRecords(SparkSession spark, String out) {
    return spark.read().schema(RequestRows.SCHEMA).parquet(out + "/" + MERGED_RECORDS).withColumn(KEY, mergeKey());
  }

  private static Column textBytes() {
    return coalesce(octet_length(col(CanonicalField.PROMPT_TEXT.column())), lit(0)).cast(DataTypes.LongType)
        .plus(coalesce(octet_length(col(CanonicalField.RESPONSE_TEXT.column())), lit(0)));
  }

  /**
   * Merges the ingest's records into {@code requests/}, the shared keys' records written aside to
   * {@link #MERGED_RECORDS} first; returns how many keys had more than one record.
   *
   * @param records {@link RequestRows#SCHEMA}'s columns and {@link #KEY}
   */
  static long run(SparkSession spark, Dataset<Row> records, String out) {
    // Cached in one partition: the shared keys are few and go whole to each broadcast; in the
    // shuffle's count of partitions each read of them (the broadcasts, the count) ran that many
    // near-empty tasks. Moved there after the count, whose reduce stays spread over the cores.
    Dataset<Row> shared = records.groupBy(KEY).count().filter(col("count").gt(1)).select(col(KEY).as(SHARED))
        .repartition(1).cache();
    try {
      Column isShared = records.col(KEY).equalTo(shared.col(SHARED));
      // One file of a few hundred rows; a coalesce would pull the scan before it into one task.
      Stages.write(records.join(broadcast(shared), isShared, "left_semi").drop(KEY).repartition(1), out, MERGED_RECORDS);
      Dataset<Row> merged = mergedRecords(spark, out)
          .groupByKey((MapFunction<Row, String>) row -> row.getAs(KEY), Encoders.STRING())
          .mapGroups((MapGroupsFunction<String, Row, Row>) (key, rows) -> {
            List<RequestRecord> group = new ArrayList<>();
            rows.forEachRemaining(row -> group.add(RequestRows.fromRow(row)));
            return RequestRows.toRow(RequestMerge.merge(group));
          }, Encoders.row(RequestRows.SCHEMA));
      Dataset<Row> alone = records.join(broadcast(shared), isShared, "left_anti").drop(KEY);
      Stages.write(alone.unionByName(merged).withColumn(TEXT_BYTES, textBytes()), out, FOLDER);
      return shared.count();
    } finally {
      shared.unpersist();
    }
  }
}

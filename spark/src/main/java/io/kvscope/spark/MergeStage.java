package io.kvscope.spark;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.udf;

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

/**
 * Stage 3, merge: the records of one request (a gateway line and a trace span of the same call)
 * become one by kvscope's own {@link RequestMerge} rule. Texts are never grouped blindly: first only
 * the keys are shuffled, to find those with more than one record (a few in thousands); the records
 * of the others pass through untouched (the merge of one record is that record), and only the
 * records under a shared key are grouped and merged. Writes {@code requests/}.
 */
final class MergeStage {

  static final String FOLDER = "requests";
  static final String KEY = "merge_key";
  private static final String SHARED = "shared_key";

  /** {@link RequestMerge#keyOf}, the single-machine key, on the two columns it reads. */
  private static final UserDefinedFunction KEY_OF = udf((UDF2<String, String, String>) (requestId, engineRid) ->
      RequestMerge.keyOf(RequestRecord.builder(requestId).engineRid(engineRid).build()), DataTypes.StringType);

  private MergeStage() {}

  /** The merge key of a row of records or requests; after the merge it names one request. */
  static Column mergeKey() {
    return KEY_OF.apply(col(CanonicalField.REQUEST_ID.column()), col(CanonicalField.ENGINE_RID.column()));
  }

  /** Merges {@code records/} into {@code requests/}; returns how many keys had more than one record. */
  static long run(SparkSession spark, String out) {
    Dataset<Row> records = spark.read().schema(RequestRows.SCHEMA).parquet(out + "/" + IngestOutput.RECORDS.folder())
        .withColumn(KEY, mergeKey());
    Dataset<Row> shared = records.groupBy(KEY).count().filter(col("count").gt(1)).select(col(KEY).as(SHARED)).cache();
    try {
      Column isShared = records.col(KEY).equalTo(shared.col(SHARED));
      Dataset<Row> alone = records.join(broadcast(shared), isShared, "left_anti").drop(KEY);
      Dataset<Row> merged = records.join(broadcast(shared), isShared, "left_semi")
          .groupByKey((MapFunction<Row, String>) row -> row.getAs(KEY), Encoders.STRING())
          .mapGroups((MapGroupsFunction<String, Row, Row>) (key, rows) -> {
            List<RequestRecord> group = new ArrayList<>();
            rows.forEachRemaining(row -> group.add(RequestRows.fromRow(row)));
            return RequestRows.toRow(RequestMerge.merge(group));
          }, Encoders.row(RequestRows.SCHEMA));
      Stages.write(alone.unionByName(merged), out, FOLDER);
      return shared.count();
    } finally {
      shared.unpersist();
    }
  }
}

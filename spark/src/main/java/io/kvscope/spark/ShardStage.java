package io.kvscope.spark;

import static org.apache.spark.sql.functions.broadcast;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.struct;

import io.kvscope.index.Checkpoint;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.merge.RequestMerge;
import io.kvscope.ingest.merge.TextCopy;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.FSDirectory;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Stage 9, Lucene shards → {@code shards/}: the documents a linked single-machine index holds,
 * written with kvscope's own document code ({@link Documents}), one Lucene index per partition.
 * The requests' shards hold each merged request with its engine facts (stage 6) in request order
 * (stage 4's ordinals, range-partitioned), and for a request of several records each record as read
 * and each text its kept one does not hold, as {@code RequestMerger} keeps them. The others hold
 * the engine lines, epochs, node hours, aliases, version records and a checkpoint per file read.
 * The driver adds every shard into one index ({@link ShardIndex}).
 *
 * <p>The index replaces a document by its {@link Schema#ID}; the shards cannot, across partitions.
 * So every output is partitioned by what its id is made of (the node, the alias), which puts two
 * documents of one id in one shard, where the later one by source replaces the earlier.
 */
final class ShardStage {

  static final String FOLDER = "shards";
  /** The shards holding request documents are named so; the others by their ingest output. */
  static final String REQUESTS = "requests";

  private ShardStage() {}

  /** Writes the shards; returns their folder names under {@code out/shards}, requests first in request order. */
  static List<String> run(SparkSession spark, String out) throws IOException {
    org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(out + "/" + FOLDER);
    target.getFileSystem(spark.sparkContext().hadoopConfiguration()).delete(target, true); // an earlier run's
    HadoopFiles.Settings hadoop = HadoopFiles.Settings.of(spark.sparkContext().hadoopConfiguration());
    int partitions = spark.sparkContext().defaultParallelism();
    List<String> shards = new ArrayList<>(write(requests(spark, out).repartitionByRange(partitions, col("ordinal"))
        .sortWithinPartitions("ordinal"), REQUESTS, target.toString(), hadoop, ShardStage::requestDocuments));
    for (IngestOutput output : List.of(IngestOutput.ENGINE_EVENTS, IngestOutput.EPOCHS, IngestOutput.NODE_ACTIVITY,
        IngestOutput.NODE_ALIASES, IngestOutput.VERSIONS, IngestOutput.CHECKPOINTS)) {
      Dataset<Row> rows = spark.read().schema(output.schema()).parquet(out + "/" + output.folder());
      Column[] id = output == IngestOutput.NODE_ALIASES ? new Column[] {col("alias")}
          : output == IngestOutput.CHECKPOINTS ? new Column[] {col("path")} : new Column[] {col("node")};
      // Engine lines are many; the rest are a few per node or file.
      rows = rows.repartition(output == IngestOutput.ENGINE_EVENTS ? partitions : 1, id)
          .sortWithinPartitions(output == IngestOutput.CHECKPOINTS ? col("path") : col("source_file"),
              output == IngestOutput.CHECKPOINTS ? col("path") : col("source_line"));
      shards.addAll(write(rows, output.folder(), target.toString(), hadoop, row -> {
        Object item = output.fromRow(row);
        return List.of(item instanceof Checkpoint checkpoint ? checkpoint.toDocument() : Documents.of((Ingested) item));
      }));
    }
    return shards;
  }

  /**
   * Each request with its ordinal, its engine facts (null when no engine line joined) and, when it
   * was merged, the records it was merged from. Only the records under a shared key are grouped.
   */
  private static Dataset<Row> requests(SparkSession spark, String out) {
    Dataset<Row> requests = spark.read().schema(RequestRows.SCHEMA).parquet(out + "/" + MergeStage.FOLDER)
        .withColumn(MergeStage.KEY, MergeStage.mergeKey());
    Dataset<Row> order = spark.read().schema(FingerprintStage.ORDER_SCHEMA).parquet(out + "/" + FingerprintStage.ORDER_FOLDER)
        .select(col("ordinal"), col(MergeStage.KEY));
    Dataset<Row> facts = spark.read().schema(EngineFactsStage.SCHEMA).parquet(out + "/" + EngineFactsStage.FOLDER)
        .select(col(MergeStage.KEY), col("facts"));
    Dataset<Row> records = spark.read().schema(RequestRows.SCHEMA).parquet(out + "/" + IngestOutput.RECORDS.folder())
        .withColumn(MergeStage.KEY, MergeStage.mergeKey());
    Dataset<Row> shared = records.groupBy(MergeStage.KEY).count().filter(col("count").gt(1)).select(MergeStage.KEY);
    Column[] columns = Arrays.stream(RequestRows.SCHEMA.fieldNames()).map(name -> col(name)).toArray(Column[]::new);
    Dataset<Row> sources = records.join(broadcast(shared), MergeStage.KEY, "left_semi").groupBy(MergeStage.KEY)
        .agg(collect_list(struct(columns)).as("sources"));
    return order.join(requests, MergeStage.KEY).join(facts, MergeStage.KEY, "left").join(sources, MergeStage.KEY, "left");
  }

  /** A request's documents, as the single-machine merge and link leave them. */
  private static List<Document> requestDocuments(Row row) {
    RequestRecord request = RequestRows.fromRow(row);
    Row facts = row.getAs("facts");
    List<Document> documents = new ArrayList<>();
    documents.add(facts == null ? Documents.of(request) : Documents.linkedRequest(request, EngineFactsStage.FACTS.fromRow(facts)));
    int at = row.fieldIndex("sources");
    if (request.provenance() != null && !row.isNullAt(at)) {
      List<RequestRecord> records = row.<Row>getList(at).stream().map(RequestRows::fromRow).toList();
      records.forEach(record -> documents.add(Documents.source(record, request)));
      String key = RequestMerge.keyOf(request);
      for (TextCopy copy : RequestMerge.disagreeing(records)) {
        documents.add(Documents.textCopy(key, copy));
      }
    }
    return documents;
  }

  /** The documents of one row. */
  @FunctionalInterface
  private interface DocumentsOf extends Serializable {
    List<Document> of(Row row);
  }

  /**
   * Writes each partition's documents as a Lucene index of its own ({@code NAME-PARTITION}) in a
   * local owner-only folder, then moves it under {@code target}. A partition with no documents
   * writes nothing. Returns the names written, in partition order.
   */
  private static List<String> write(Dataset<Row> rows, String name, String target, HadoopFiles.Settings hadoop,
      DocumentsOf documents) {
    return rows.mapPartitions((MapPartitionsFunction<Row, String>) partition -> {
      String shard = String.format("%s-%05d", name, TaskContext.getPartitionId());
      Path local = Files.createTempDirectory("kvscope-shard-"); // owner-only (rwx------)
      try {
        long written = 0;
        try (FSDirectory directory = FSDirectory.open(local);
            IndexWriter writer = new IndexWriter(directory, IndexStore.writerConfig())) {
          while (partition.hasNext()) {
            for (Document document : documents.of(partition.next())) {
              writer.updateDocument(new Term(Schema.ID, document.get(Schema.ID)), document);
              written++;
            }
          }
          writer.commit();
        }
        if (written == 0) {
          return Collections.emptyIterator();
        }
        org.apache.hadoop.fs.Path to = new org.apache.hadoop.fs.Path(target, shard);
        // An instance of its own: no checksum files beside the shard's, and the shared one untouched.
        try (FileSystem fs = FileSystem.newInstance(to.toUri(), hadoop.configuration())) {
          fs.setWriteChecksum(false);
          fs.delete(to, true); // a retried task's first attempt
          fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(local.toUri()), to);
        }
        return List.of(shard).iterator();
      } finally {
        Stages.deleteTree(local);
      }
    }, Encoders.STRING()).collectAsList().stream().sorted().toList();
  }
}

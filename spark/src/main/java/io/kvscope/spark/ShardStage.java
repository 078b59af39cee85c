package io.kvscope.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.struct;

import io.kvscope.index.Checkpoint;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.fingerprint.FingerprintFields;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.merge.RequestMerge;
import io.kvscope.ingest.merge.TextCopy;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.model.fingerprint.Fingerprinter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.FSDirectory;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.util.TaskCompletionListener;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;

/**
 * Stage 9, Lucene shards → {@code shards/}: the documents a linked single-machine index holds,
 * written with kvscope's own document code ({@link Documents}), one Lucene index per partition.
 * The requests' shards hold each merged request with its engine facts (stage 6) in request order
 * (stage 4's ordinals, cut into ranges of equal text by {@link ShardBounds}), and for a request of several records each record as read
 * and each text its kept one does not hold, as {@code RequestMerger} keeps them. The others hold
 * the engine lines, epochs, node hours, aliases, version records and a checkpoint per file read.
 * The driver adds every shard into one index ({@link ShardIndex}).
 *
 * <p>The requests' shards are written in the pass that also gives stage 4 its fingerprint rows
 * ({@link #requests}): each text is read and fingerprinted once, and the hashes serve both its
 * document's terms and {@code fingerprints/}. The other shards need only the ingest's outputs ({@link #others}).
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

  /** The name of the requests' shard of partition {@code partition}. */
  static String requestShard(int partition) {
    return shardName(REQUESTS, partition);
  }

  private static String shardName(String name, int partition) {
    return String.format("%s-%05d", name, partition);
  }

  /**
   * Writes the requests' shards, and from the same texts stage 4's {@code fingerprints/}: each
   * request's distinct hashes per side with its ordinal and tenant, as {@link
   * FingerprintStage#FINGERPRINT_SCHEMA}. Needs {@code request_order/} and {@code engine_facts/},
   * and an earlier run's shards gone ({@link #clear}).
   */
  static void requests(SparkSession spark, String out) throws IOException {
    org.apache.hadoop.fs.Path target = target(spark, out);
    HadoopFiles.Settings hadoop = HadoopFiles.Settings.of(spark.sparkContext().hadoopConfiguration());
    String to = target.toString();
    int shards = spark.sparkContext().defaultParallelism();
    // Cut by text, not by count; and known before the shuffle, which a range partitioning would
    // learn from a sampling pass over the whole join.
    ShardBounds bounds = ShardBounds.of(spark, out, shards);
    bounds.record(spark, out); // where each request's texts lie, for the span verification (stage 10)
    Dataset<Row> fingerprints = inRequestOrder(spark, out, bounds, shards).mapPartitions((MapPartitionsFunction<Row, Row>) partition -> {
      ShardWriter shard = ShardWriter.open(REQUESTS, to, hadoop);
      TaskContext.get().addTaskCompletionListener((TaskCompletionListener) context -> shard.close());
      return new FingerprintRows(partition, shard);
    }, Encoders.row(FingerprintStage.FINGERPRINT_SCHEMA));
    Stages.write(fingerprints, out, FingerprintStage.FINGERPRINT_FOLDER);
  }

  /**
   * The rows of {@link #requestRows} moved to their shard of {@code bounds} and sorted there into
   * request order, a request's row before its merged records' ({@link #SOURCES} is null in the first).
   */
  static Dataset<Row> inRequestOrder(SparkSession spark, String out, ShardBounds bounds, int shards) {
    return requestRows(spark, out).repartitionById(shards, bounds.shardOf(col("ordinal")))
        .sortWithinPartitions(col("ordinal"), col(SOURCES).isNotNull());
  }

  /** Deletes an earlier run's shards, before either kind is written. */
  static void clear(SparkSession spark, String out) throws IOException {
    org.apache.hadoop.fs.Path target = target(spark, out);
    target.getFileSystem(spark.sparkContext().hadoopConfiguration()).delete(target, true);
  }

  /** The requests' shards' folder names under {@code out/shards}, in request order. */
  static List<String> requestShards(SparkSession spark, String out) throws IOException {
    org.apache.hadoop.fs.Path target = target(spark, out);
    FileSystem fs = target.getFileSystem(spark.sparkContext().hadoopConfiguration());
    List<String> shards = new ArrayList<>();
    if (fs.exists(target)) {
      for (FileStatus shard : fs.listStatus(target)) {
        if (shard.isDirectory() && shard.getPath().getName().startsWith(REQUESTS + "-")) {
          shards.add(shard.getPath().getName());
        }
      }
    }
    Collections.sort(shards);
    return shards;
  }

  /**
   * Writes the other outputs' shards, which need only the ingest's outputs; returns their folder
   * names under {@code out/shards}.
   */
  static List<String> others(SparkSession spark, String out) {
    org.apache.hadoop.fs.Path target = target(spark, out);
    HadoopFiles.Settings hadoop = HadoopFiles.Settings.of(spark.sparkContext().hadoopConfiguration());
    int partitions = spark.sparkContext().defaultParallelism();
    List<String> shards = new ArrayList<>();
    for (IngestOutput output : List.of(IngestOutput.ENGINE_EVENTS, IngestOutput.EPOCHS, IngestOutput.NODE_ACTIVITY,
        IngestOutput.NODE_ALIASES, IngestOutput.VERSIONS, IngestOutput.CHECKPOINTS)) {
      Dataset<Row> rows = spark.read().schema(output.schema()).parquet(out + "/" + output.folder());
      Column[] id = output == IngestOutput.NODE_ALIASES ? new Column[] {col("alias")}
          : output == IngestOutput.CHECKPOINTS ? new Column[] {col("path")} : new Column[] {col("node")};
      // Engine lines are many; the rest are a few per node or file.
      rows = rows.repartition(output == IngestOutput.ENGINE_EVENTS ? partitions : 1, id)
          .sortWithinPartitions(output == IngestOutput.CHECKPOINTS ? col("path") : col("source_file"),
              output == IngestOutput.CHECKPOINTS ? col("path") : col("source_line"));
      shards.addAll(write(rows, output, target.toString(), hadoop));
    }
    return shards;
  }

  private static org.apache.hadoop.fs.Path target(SparkSession spark, String out) {
    return new org.apache.hadoop.fs.Path(out + "/" + FOLDER);
  }

  /**
   * Each request with its ordinal and tenant and its engine facts (null when no engine line
   * joined); and for each request merged from several records, a row of its ordinal and those
   * records ({@link #SOURCES}, the request's other columns null), read from the few the merge set
   * aside ({@link MergeStage#MERGED_RECORDS}), not found again among all the records. The records
   * meet only the order, never the requests' texts: joined to the
   * texts, they made a sort-merge join whose texts' side was shuffled by key before adaptive
   * execution, seeing how few they are, made it a broadcast, so every text crossed two shuffles.
   */
  private static Dataset<Row> requestRows(SparkSession spark, String out) {
    Dataset<Row> requests = spark.read().schema(RequestRows.SCHEMA).parquet(out + "/" + MergeStage.FOLDER)
        .withColumn(MergeStage.KEY, MergeStage.mergeKey());
    Dataset<Row> order = spark.read().schema(FingerprintStage.ORDER_SCHEMA).parquet(out + "/" + FingerprintStage.ORDER_FOLDER)
        .select(col("ordinal"), col("tenant").as(TENANT), col(MergeStage.KEY));
    Dataset<Row> facts = spark.read().schema(EngineFactsStage.SCHEMA).parquet(out + "/" + EngineFactsStage.FOLDER)
        .select(col(MergeStage.KEY), col("facts"));
    Column[] columns = Arrays.stream(RequestRows.SCHEMA.fieldNames()).map(name -> col(name)).toArray(Column[]::new);
    Dataset<Row> sources = MergeStage.mergedRecords(spark, out).groupBy(MergeStage.KEY)
        .agg(collect_list(struct(columns)).as(SOURCES));
    return order.join(requests, MergeStage.KEY).join(facts, MergeStage.KEY, "left")
        .unionByName(order.join(sources, MergeStage.KEY), true);
  }

  /** The tenant ordinal's column among the requests' (whose {@code tenant} is the name). */
  private static final String TENANT = "tenant_ordinal";
  /** The column of a merged request's records, in a row of their own after the request's. */
  private static final String SOURCES = "sources";

  /**
   * A request's documents, as the single-machine merge and link leave them, its texts' fingerprints
   * given; {@code sources} is the row of the records it was merged from, or null.
   */
  private static List<Document> requestDocuments(Row row, Row sources, RequestRecord request,
      FingerprintFields.Hashes fingerprints) {
    Row facts = row.getAs("facts");
    List<Document> documents = new ArrayList<>();
    documents.add(facts == null ? Documents.request(request, fingerprints)
        : Documents.linkedRequest(request, EngineFactsStage.FACTS.fromRow(facts), fingerprints));
    if (request.provenance() != null && sources != null) {
      List<RequestRecord> records = sources.<Row>getList(sources.fieldIndex(SOURCES)).stream().map(RequestRows::fromRow).toList();
      records.forEach(record -> documents.add(Documents.source(record, request)));
      String key = RequestMerge.keyOf(request);
      for (TextCopy copy : RequestMerge.disagreeing(records)) {
        documents.add(Documents.textCopy(key, copy));
      }
    }
    return documents;
  }

  /**
   * A partition of requests in request order, each merged one's records in the row after it,
   * indexed into its shard one request at a time as its fingerprint rows are asked for; the shard
   * is finished when the last request's rows are out.
   */
  private static final class FingerprintRows implements Iterator<Row> {
    private final Iterator<Row> requests;
    private final ShardWriter shard;
    private final ArrayDeque<Row> pending = new ArrayDeque<>();
    /** The row read after a request's when it was not that request's records. */
    private Row ahead;

    FingerprintRows(Iterator<Row> requests, ShardWriter shard) {
      this.requests = requests;
      this.shard = shard;
    }

    @Override
    public boolean hasNext() {
      try {
        Row row;
        while (pending.isEmpty() && (row = nextRow()) != null) {
          if (!isSources(row)) { // records whose request is gone have nothing to join (none after the merge)
            Row after = nextRow();
            boolean itsRecords = after != null && isSources(after) && ordinal(after) == ordinal(row);
            if (!itsRecords) {
              ahead = after;
            }
            index(row, itsRecords ? after : null);
          }
        }
        if (pending.isEmpty()) {
          shard.finish();
          return false;
        }
        return true;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public Row next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return pending.poll();
    }

    private Row nextRow() {
      if (ahead != null) {
        Row row = ahead;
        ahead = null;
        return row;
      }
      return requests.hasNext() ? requests.next() : null;
    }

    private static boolean isSources(Row row) {
      return !row.isNullAt(row.fieldIndex(SOURCES));
    }

    private static int ordinal(Row row) {
      return row.getInt(row.fieldIndex("ordinal"));
    }

    private void index(Row row, Row sources) throws IOException {
      RequestRecord request = RequestRows.fromRow(row);
      FingerprintFields.Hashes fingerprints =
          FingerprintFields.Hashes.of(request.promptText(), request.responseText(), Fingerprinters.DEFAULT);
      shard.add(requestDocuments(row, sources, request, fingerprints));
      int ordinal = ordinal(row);
      int tenant = row.getInt(row.fieldIndex(TENANT));
      queue(fingerprints.prompt(), FingerprintStage.PROMPT, ordinal, tenant);
      queue(fingerprints.response(), FingerprintStage.RESPONSE, ordinal, tenant);
    }

    private void queue(long[] hashes, byte side, int ordinal, int tenant) {
      if (hashes != null) {
        for (long hash : hashes) {
          pending.add(RowFactory.create(hash, side, ordinal, tenant));
        }
      }
    }
  }

  /** One fingerprinter per executor JVM (it is immutable and thread-safe), under the index's scheme. */
  private static final class Fingerprinters {
    static final Fingerprinter DEFAULT = new Fingerprinter(Documents.FINGERPRINTS);
  }

  /**
   * Writes each partition's documents of {@code output} as a Lucene index of its own
   * ({@code FOLDER-PARTITION}), then moves it under {@code target}. A partition with no documents writes nothing. Returns the names
   * written, in partition order.
   */
  private static List<String> write(Dataset<Row> rows, IngestOutput output, String target, HadoopFiles.Settings hadoop) {
    return rows.mapPartitions((MapPartitionsFunction<Row, String>) partition -> {
      try (ShardWriter shard = ShardWriter.open(output.folder(), target, hadoop)) {
        while (partition.hasNext()) {
          Object item = output.fromRow(partition.next());
          shard.add(List.of(item instanceof Checkpoint checkpoint ? checkpoint.toDocument() : Documents.of((Ingested) item)));
        }
        String written = shard.finish();
        return written == null ? Collections.emptyIterator() : List.of(written).iterator();
      }
    }, Encoders.STRING()).collectAsList().stream().sorted().toList();
  }

  /**
   * One partition's shard ({@code NAME-PARTITION}): a Lucene index written with the index's own
   * settings in a local owner-only folder, then copied under the target folder (any Hadoop file
   * system). Closing it deletes the local folder, whether or not the shard was finished.
   */
  private static final class ShardWriter implements AutoCloseable {
    private final String shard;
    private final String target;
    private final HadoopFiles.Settings hadoop;
    private final Path local;
    private final FSDirectory directory;
    private final IndexWriter writer;
    private long written;
    private boolean finished;

    private ShardWriter(String shard, String target, HadoopFiles.Settings hadoop, Path local, FSDirectory directory,
        IndexWriter writer) {
      this.shard = shard;
      this.target = target;
      this.hadoop = hadoop;
      this.local = local;
      this.directory = directory;
      this.writer = writer;
    }

    static ShardWriter open(String name, String target, HadoopFiles.Settings hadoop) throws IOException {
      String shard = shardName(name, TaskContext.getPartitionId());
      Path local = Files.createTempDirectory("kvscope-shard-"); // owner-only (rwx------)
      FSDirectory directory = null;
      try {
        directory = FSDirectory.open(local);
        return new ShardWriter(shard, target, hadoop, local, directory, new IndexWriter(directory, IndexStore.writerConfig()));
      } catch (IOException | RuntimeException e) {
        if (directory != null) {
          directory.close();
        }
        Stages.deleteTree(local);
        throw e;
      }
    }

    void add(List<Document> documents) throws IOException {
      for (Document document : documents) {
        writer.updateDocument(new Term(Schema.ID, document.get(Schema.ID)), document);
        written++;
      }
    }

    /** Commits the shard and copies it under the target; returns its name, or null if it holds no document. */
    String finish() throws IOException {
      if (finished) {
        return written == 0 ? null : shard;
      }
      writer.commit();
      writer.close();
      directory.close();
      finished = true;
      if (written == 0) {
        return null;
      }
      org.apache.hadoop.fs.Path to = new org.apache.hadoop.fs.Path(target, shard);
      // An instance of its own: no checksum files beside the shard's, and the shared one untouched.
      try (FileSystem fs = FileSystem.newInstance(to.toUri(), hadoop.configuration())) {
        fs.setWriteChecksum(false);
        fs.delete(to, true); // a retried task's first attempt
        fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(local.toUri()), to);
      }
      return shard;
    }

    @Override
    public void close() {
      try {
        if (!finished) {
          finished = true;
          writer.rollback();
          directory.close();
        }
        Stages.deleteTree(local);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}

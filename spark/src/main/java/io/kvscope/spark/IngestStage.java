package io.kvscope.spark;

import static org.apache.spark.sql.functions.col;

import io.kvscope.index.Checkpoint;
import io.kvscope.index.IndexIngest;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.Plausibility;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;

/**
 * Stage 2, ingest: a task per planned file runs the file's own kvscope {@link Ingestor} (a huge file
 * of a line-by-line format is fanned out to many tasks instead: {@link FanOut}), builds rows of what
 * it emits, and quarantines bad lines and implausible records as the single-machine ingest does (the same {@link Plausibility} check, the same reasons). One pass over the files
 * fills every {@link IngestOutput}: its rows carry one struct column per output, and each output's
 * folder takes the rows whose column is set. The user's {@code --node-alias} settings join the
 * aliases read from the files, as the single-machine ingest keeps them in its index beside those.
 */
final class IngestStage {

  /** As in the single-machine ingest: a line-by-line file survives this many failing lines. */
  private static final int MAX_LINE_FAILURES = 64;

  static final StructType ONE_PASS = onePass();

  /** The column beside the outputs where a fanned-out file's rows carry their part of its checkpoint ({@link FanOut}). */
  static final String PART = "checkpoint_part";
  static final StructType PART_SCHEMA = new StructType()
      .add("name", DataTypes.StringType, false).add("format", DataTypes.StringType)
      .add("size", DataTypes.LongType).add("modified", DataTypes.LongType)
      .add("head_hash", DataTypes.StringType).add("sha256", DataTypes.StringType)
      .add("complete", DataTypes.BooleanType)
      .add("records", DataTypes.LongType, false).add("bad", DataTypes.LongType, false)
      .add("last_line", DataTypes.LongType, false);
  private static final StructType WITH_PARTS = ONE_PASS.add(PART, PART_SCHEMA, true);

  private IngestStage() {}

  private static StructType onePass() {
    List<StructField> fields = new ArrayList<>();
    for (IngestOutput output : IngestOutput.values()) {
      fields.add(DataTypes.createStructField(output.folder(), output.schema(), true));
    }
    return DataTypes.createStructType(fields);
  }

  static Pass run(SparkSession spark, List<PlannedFile> planned, IngestSettings settings, List<NodeAlias> userAliases,
      String out) {
    return run(spark, planned, settings, userAliases, out, FanOut.FILE_BYTES);
  }

  /**
   * Writes every output; returns the pass, still cached, for the merge (stage 3), which closing it
   * drops.
   *
   * @param fanOutBytes files this large of a format with a line parser are fanned out ({@link FanOut})
   */
  static Pass run(SparkSession spark, List<PlannedFile> planned, IngestSettings settings, List<NodeAlias> userAliases,
      String out, long fanOutBytes) {
    // Largest first, so that the longest task is not the last to start.
    List<PlannedFile> files = planned.stream().filter(f -> f.format() != null || f.unreadable() != null)
        .sorted(Comparator.comparingLong(PlannedFile::size).reversed()).toList();
    IngestOptions options = settings.options();
    List<PlannedFile> fanned = files.stream().filter(f -> FanOut.fansOut(f, options, fanOutBytes)).toList();
    List<PlannedFile> whole = files.stream().filter(f -> !fanned.contains(f)).toList();
    HadoopFiles.Settings hadoop = HadoopFiles.Settings.of(spark.sparkContext().hadoopConfiguration());
    JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
    JavaRDD<Row> rows = context.parallelize(whole, Math.max(1, whole.size()))
        .flatMap(file -> ingest(file, settings, hadoop));
    if (!userAliases.isEmpty()) {
      rows = rows.union(context.parallelize(userAliases.stream().map(IngestStage::onePassRow).toList(), 1));
    }
    rows = rows.map(row -> FanOut.withPart(row, null));
    if (!fanned.isEmpty()) {
      int parsers = ShufflePartitions.of(fanned.stream().mapToLong(PlannedFile::size).sum(),
          spark.sparkContext().defaultParallelism());
      rows = rows.union(FanOut.rows(context, fanned, settings, hadoop, parsers));
    }
    // A record's merge key is cached beside it, so that the merge's count of keys reads no text.
    Dataset<Row> ingested = spark.createDataFrame(rows, WITH_PARTS)
        .withColumn(MergeStage.KEY, MergeStage.mergeKeyOf(IngestOutput.RECORDS.folder()))
        .persist(StorageLevel.MEMORY_AND_DISK());
    int writers = Math.min(Math.max(1, files.size()), spark.sparkContext().defaultParallelism());
    Pass pass = new Pass(ingested, writers);
    try {
      ingested.count(); // parses, a task per file (or per batch); the writes below read the cached rows
      List<Row> checkpoints = new ArrayList<>();
      if (!fanned.isEmpty()) {
        for (Checkpoint checkpoint : FanOut.checkpoints(
            ingested.where(ingested.col(PART).isNotNull()).select(PART + ".*").collectAsList())) {
          checkpoints.add(IngestOutput.CHECKPOINTS.toRow(checkpoint));
        }
      }
      for (IngestOutput output : IngestOutput.values()) {
        Dataset<Row> written = pass.rowsOf(output).select(output.folder() + ".*");
        if (output == IngestOutput.CHECKPOINTS && !checkpoints.isEmpty()) {
          written = written.unionByName(spark.createDataFrame(checkpoints, output.schema()));
        }
        Stages.write(written.coalesce(pass.writers), out, output.folder());
      }
      return pass;
    } catch (RuntimeException e) {
      pass.close();
      throw e;
    }
  }

  /**
   * The ingest's one pass, cached until closed: the merge reads the records here, where each one's
   * text is in memory, rather than back from {@code records/}.
   */
  static final class Pass implements AutoCloseable {
    private final Dataset<Row> cached;
    /** How many files each output is written in, and the merge reads the records in. */
    private final int writers;

    private Pass(Dataset<Row> cached, int writers) {
      this.cached = cached;
      this.writers = writers;
    }

    /** The records, {@link RequestRows#SCHEMA}'s columns and {@link MergeStage#KEY}. */
    Dataset<Row> records() {
      // Kept by their key, which only a record has: a count of the keys then reads that column alone.
      return cached.filter(cached.col(MergeStage.KEY).isNotNull())
          .select(col(IngestOutput.RECORDS.folder() + ".*"), col(MergeStage.KEY)).coalesce(writers);
    }

    private Dataset<Row> rowsOf(IngestOutput output) {
      return cached.filter(cached.col(output.folder()).isNotNull());
    }

    @Override
    public void close() {
      cached.unpersist();
    }
  }

  /**
   * One file's rows, handed on as the parser makes them ({@link BoundedRows}): a task holds a few
   * rows of its file at a time, not the whole file's. Runs in a task; kvscope's objects are built
   * here, never shipped.
   */
  static Iterator<Row> ingest(PlannedFile file, IngestSettings settings, HadoopFiles.Settings hadoop) {
    return BoundedRows.of(rows -> ingest(file, settings, hadoop, new Rows(file.name(), rows)));
  }

  private static void ingest(PlannedFile file, IngestSettings settings, HadoopFiles.Settings hadoop, Rows sink) {
    if (file.unreadable() != null) {
      sink.malformed(new BadInput(file.name(), 0, file.unreadable()), null);
      return;
    }
    IngestOptions options = settings.options();
    Ingestor ingestor = Ingestors.discover().byName(file.format()).orElseThrow();
    try (HadoopFiles.LocalFile local = HadoopFiles.local(file.uri(), hadoop, Long.MAX_VALUE)) {
      long size = Files.size(local.path());
      long modified = Files.getLastModifiedTime(local.path()).toMillis();
      String headHash = IndexIngest.headHash(local.path());
      sink.input = new InputFile(local.path(), file.name(), 0);
      boolean complete = parse(ingestor, options, sink);
      // As FileSink checkpoints a file at its end: the lines done, every record and bad line of it.
      sink.add(new Checkpoint(file.name(), size, modified, headHash, ingestor.name(),
          complete ? sink.lastLine : Math.max(0, sink.lastLine - 1), sink.records, complete, sink.bad,
          sink.input.sha256()));
    } catch (IOException unreadable) {
      sink.malformed(new BadInput(file.name(), 0, "cannot read file (" + Stages.describe(unreadable) + ")"), null);
    }
  }

  /**
   * Parses as the single-machine ingest does: a failing line of a line-by-line format costs that
   * line and the parse goes on after it; any other failure ends the file, quarantined with its line.
   * Returns whether the file was read to its end with nothing lost.
   */
  private static boolean parse(Ingestor ingestor, IngestOptions options, Rows sink) {
    for (int failures = 0; ; failures++) {
      InputFile input = sink.input;
      try {
        ingestor.parse(input, options, sink);
        return !input.endedEarly();
      } catch (IOException | RuntimeException failure) {
        long line = input.lineReached();
        boolean oneLine = failure instanceof RuntimeException && ingestor.resumableByLine()
            && line > input.resumeAfterLine() && failures < MAX_LINE_FAILURES;
        if (!oneLine) {
          sink.malformed(new BadInput(input.name(), line > 0 ? line : sink.lastLine + 1,
              "reading stopped: " + Stages.what(failure)), null);
          return false;
        }
        sink.malformed(new BadInput(input.name(), line, "cannot be read (" + Stages.what(failure)
            + "); reading goes on after it"), null);
        sink.input = new InputFile(input.path(), input.name(), line);
      }
    }
  }

  /** {@code item}'s row of the one pass: its output's column set, every other null. */
  static Row onePassRow(Object item) {
    IngestOutput output = IngestOutput.of(item);
    Object[] columns = new Object[IngestOutput.values().length];
    columns[output.ordinal()] = output.toRow(item);
    return RowFactory.create(columns);
  }

  /** Turns one file's items into one-pass rows for {@code rows}; implausible records go to the quarantine. */
  static final class Rows implements RecordSink {
    private final Consumer<Row> rows;
    private final String fileName;
    /** The reading in progress: a failed line starts another after it. */
    InputFile input;
    long lastLine;
    long records;
    long bad;

    Rows(String fileName, Consumer<Row> rows) {
      this.fileName = fileName;
      this.rows = rows;
    }

    @Override
    public void accept(Ingested item) {
      Optional<String> implausible = Plausibility.problem(item);
      if (implausible.isPresent()) {
        malformed(new BadInput(fileName, item.sourceLine(), implausible.get()), null);
        return;
      }
      add(item);
      records++;
      lastLine = Math.max(lastLine, item.sourceLine());
    }

    @Override
    public void malformed(BadInput bad, String raw) {
      add(Quarantined.of(bad, raw));
      this.bad++;
      lastLine = Math.max(lastLine, bad.line());
    }

    void add(Object item) {
      rows.accept(onePassRow(item));
    }
  }
}

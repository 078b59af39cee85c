package io.kvscope.spark;

import static org.apache.spark.sql.functions.col;

import io.kvscope.analysis.analyzers.PairsFile;
import io.kvscope.analysis.analyzers.RunsFile;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.model.evidence.PassageRules;
import io.kvscope.model.fingerprint.TextRange;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;

/**
 * The driver's end of the span verification: {@code runs/} written for the analysis of the index
 * the driver built, as {@link RunsFile} ({@code OUT/runs.arrow}, beside the pairs file), in the
 * index's document ids, sorted by (recipient, source, side) document there and each pair's parts
 * kept in the verifier's order. The driver streams them into the file a partition at a time.
 */
final class DriverRuns {

  private DriverRuns() {}

  /** Where the runs of the job's output folder {@code out} go: beside its pairs file. */
  static Path fileOf(String out) {
    return DriverPairs.fileOf(out).resolveSibling(RunsFile.FILE_NAME);
  }

  /**
   * Writes the runs of {@code out}'s {@code runs/}, found under {@code --min-span} {@code minSpan}
   * for the pairs of the {@code options} join, for the index of {@code docs}; returns how many.
   */
  static long write(SparkSession spark, String out, DriverPairs.IndexDocs docs, JoinOptions options, int minSpan)
      throws IOException {
    Broadcast<int[]> documents = JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(docs.docOf());
    try {
      Iterator<Row> sorted = spark.read().schema(VerifyStage.SCHEMA).parquet(out + "/" + VerifyStage.FOLDER)
          .map((MapFunction<Row, Row>) run -> {
            Object[] values = new Object[VerifyStage.SCHEMA.size()];
            for (int i = 0; i < values.length; i++) {
              values[i] = run.get(i);
            }
            values[0] = documents.value()[run.getInt(0)];
            values[1] = documents.value()[run.getInt(1)];
            return RowFactory.create(values);
          }, Encoders.row(VerifyStage.SCHEMA))
          .sort(col("recipient"), col("source"), col("side"), col("part"))
          .toLocalIterator();
      Iterator<RunsFile.Run> runs = new Iterator<>() {
        @Override
        public boolean hasNext() {
          return sorted.hasNext();
        }

        @Override
        public RunsFile.Run next() {
          Row row = sorted.next();
          RunsFile.Side side = RunsFile.Side.values()[row.getByte(2)];
          return new RunsFile.Run(row.getInt(0), row.getInt(1), side, range(row, 4),
              side == RunsFile.Side.OWN_PROMPT ? null : range(row, 8));
        }
      };
      RunsFile.Header header = new RunsFile.Header(spark.sparkContext().applicationId(), docs.commit(),
          PairsFile.joinSettings(options), RunsFile.minWords(minSpan), PassageRules.MIN_WORDS,
          VerifyStage.verifier(minSpan).config().schemeId());
      return RunsFile.write(fileOf(out), header, runs);
    } finally {
      documents.destroy();
    }
  }

  private static TextRange range(Row row, int first) {
    return new TextRange(row.getInt(first), row.getInt(first + 1), row.getInt(first + 2), row.getInt(first + 3));
  }
}

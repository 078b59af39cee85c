package io.kvscope.spark;

import static org.apache.spark.sql.functions.col;

import io.kvscope.index.QuarantineFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The job's bad lines in the index the driver built, where the single-machine ingest keeps its own:
 * {@code quarantine/} (Parquet) becomes the index's {@link QuarantineFile}, one JSON line per bad input
 * with its file, line, reason and raw text, owner-only, written only when there is a bad line. The
 * rows come to the driver a partition at a time, in (file, line) order.
 */
final class IndexQuarantine {

  private IndexQuarantine() {}

  /** Writes {@code out}'s quarantine into {@code index}, named by {@code startedAt}; returns its file, or null when empty. */
  static Path write(SparkSession spark, String out, Path index, long startedAt) throws IOException {
    IngestOutput quarantine = IngestOutput.QUARANTINE;
    Iterator<Row> rows = spark.read().schema(quarantine.schema()).parquet(out + "/" + quarantine.folder())
        .sort(col("file"), col("line")).toLocalIterator();
    try (QuarantineFile file = new QuarantineFile(index, startedAt)) {
      while (rows.hasNext()) {
        Quarantined bad = (Quarantined) quarantine.fromRow(rows.next());
        file.write(bad.bad(), bad.raw());
      }
      return file.file();
    }
  }
}

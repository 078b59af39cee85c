package io.kvscope.spark;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.KvscopeOutputs;
import io.kvscope.ingest.Sniff;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * Stage 1, plan the inputs: the driver lists the files, then a task per file reads its head and
 * names its format by content with kvscope's own {@link Ingestors}, as the single-machine ingest
 * does (kvscope's own outputs and empty files are skipped). Writes {@code inputs/}, one row per file.
 */
final class InputPlan {

  /** Raw bytes copied from a remote file for detection: enough for {@link Sniff#HEAD_BYTES} decompressed. */
  private static final long HEAD_COPY_BYTES = 16L * Sniff.HEAD_BYTES;

  static final String FOLDER = "inputs";

  private InputPlan() {}

  static List<PlannedFile> run(SparkSession spark, List<String> inputs, IngestSettings settings, String out)
      throws IOException {
    List<PlannedFile> listed = HadoopFiles.list(inputs, out, spark.sparkContext().hadoopConfiguration());
    HadoopFiles.Settings hadoop = HadoopFiles.Settings.of(spark.sparkContext().hadoopConfiguration());
    List<PlannedFile> planned = listed.isEmpty() ? List.of()
        : JavaSparkContext.fromSparkContext(spark.sparkContext())
            .parallelize(listed, listed.size())
            .map(file -> detect(file, settings, hadoop))
            .collect();
    Stages.write(spark, planned.stream().map(PlannedFile.class::cast).map(ROWS::toRow).toList(), ROWS.schema(),
        out, FOLDER);
    return planned;
  }

  static final RecordRows<PlannedFile> ROWS = RecordRows.of(PlannedFile.class);

  /** The file with its format, or why it is not read. Runs in a task. */
  static PlannedFile detect(PlannedFile file, IngestSettings settings, HadoopFiles.Settings hadoop) {
    if (file.skippedBecause() != null) {
      return file; // a kvscope index the walk did not enter
    }
    IngestOptions options = settings.options();
    try (HadoopFiles.LocalFile head = HadoopFiles.local(file.uri(), hadoop, HEAD_COPY_BYTES)) {
      Sniff sniff = new InputFile(head.path(), file.name(), 0).sniff();
      Optional<String> own = KvscopeOutputs.recognise(sniff);
      if (own.isPresent()) {
        return file.skipped("kvscope's own output (" + own.get() + ")");
      }
      Optional<Ingestor> format = Ingestors.discover().detect(sniff, options);
      if (format.isEmpty()) {
        return file.skipped(file.size() == 0 ? "empty file; nothing to read" : "no format recognized; skipped");
      }
      return file.detected(format.get().name());
    } catch (IOException unreadable) {
      return file.cannotRead("cannot read file (" + Stages.describe(unreadable) + ")");
    }
  }
}

package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.InputFile;
import io.kvscope.samples.GeneratorOptions;
import io.kvscope.samples.IncidentGenerator;
import io.kvscope.samples.OutputCompression;
import io.kvscope.samples.Scale;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gateway and trace files fanned out to line parsers give what reading each whole file in one task
 * gives (which {@link ScopeJobTest} holds to the single-machine ingest): every record, bad line and
 * checkpoint, with the same file and line. The generator's zstd incident (batches of lines), plus a
 * copy of a zstd gateway file cut short (damaged data), a plain gateway file with lines that are no
 * payload, and a whole gateway file uncompressed with CRLF ends and invalid UTF-8 (spans of bytes).
 */
class FanOutTest {

  @Test
  void fannedOutFilesGiveTheRowsOfWholeFilesInMoreTasks(@TempDir Path dir) throws IOException {
    Path incident = dir.resolve("incident");
    new IncidentGenerator().generate(incident,
        GeneratorOptions.incident(2, Scale.parse("0.25x")).withCompression(OutputCompression.ZSTD));
    Path gateway;
    try (Stream<Path> files = Files.walk(incident)) {
      gateway = files.filter(p -> p.getFileName().toString().matches("litellm-.*\\.jsonl\\.zst")).sorted()
          .findFirst().orElseThrow();
    }
    byte[] compressed = Files.readAllBytes(gateway);
    Files.write(incident.resolve("cut-" + gateway.getFileName()), Arrays.copyOf(compressed, compressed.length / 2));
    List<String> payloads;
    try (InputStream in = new InputFile(gateway).open()) {
      payloads = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
    Files.writeString(incident.resolve("litellm-plain.jsonl"),
        payloads.get(0) + "\nnot a payload\n{\"id\": 3}\n\n" + payloads.get(1) + "\n");
    // A whole gateway file uncompressed, in spans of its bytes: CRLF line ends, a line of invalid
    // UTF-8 among them, and no newline after its last line.
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    for (int i = 0; i < payloads.size(); i++) {
      plain.writeBytes(payloads.get(i).getBytes(StandardCharsets.UTF_8));
      plain.writeBytes(i == payloads.size() - 1 ? new byte[0] : "\r\n".getBytes(StandardCharsets.UTF_8));
      if (i == 3) {
        plain.writeBytes(new byte[] {'{', '"', (byte) 0xFF, '"', '}', '\r', '\n'});
      }
    }
    Path plainGateway = incident.resolve("plain-" + gateway.getFileName().toString().replace(".zst", ""));
    Files.write(plainGateway, plain.toByteArray());
    assertThat(plain.size()).isGreaterThan(4 * FanOut.BATCH_CHARS); // several spans

    SparkSession spark = SharedSpark.session();
    IngestSettings settings = IngestSettings.of(IngestOptions.defaults());
    String wholeOut = dir.resolve("whole").toString();
    String fannedOut = dir.resolve("fanned").toString();
    List<PlannedFile> planned = InputPlan.run(spark, List.of(incident.toString()), settings, wholeOut);
    List<PlannedFile> fanned = planned.stream().filter(f -> FanOut.fansOut(f, IngestOptions.defaults(), 1)).toList();
    assertThat(fanned).extracting(PlannedFile::name).anyMatch(n -> n.endsWith(".zst")).anyMatch(n -> n.startsWith(
        incident.resolve("cut-").toString())).anyMatch(n -> n.endsWith("litellm-plain.jsonl"))
        .contains(plainGateway.toString());

    IngestStage.run(spark, planned, settings, List.of(), wholeOut, Long.MAX_VALUE).close();
    IngestStage.run(spark, planned, settings, List.of(), fannedOut, 1).close();

    for (IngestOutput output : IngestOutput.values()) {
      assertThat(rows(spark, fannedOut, output)).as(output.folder()).isEqualTo(rows(spark, wholeOut, output));
    }
    assertThat(rows(spark, wholeOut, IngestOutput.RECORDS)).hasSizeGreaterThan(100);
    // The cut file: what came before the damage, the damage quarantined, and a checkpoint saying so.
    String cut = incident.resolve("cut-").toString();
    assertThat(rows(spark, fannedOut, IngestOutput.QUARANTINE)).anyMatch(row -> row.contains(cut));
    assertThat(rows(spark, fannedOut, IngestOutput.CHECKPOINTS))
        .hasSize((int) planned.stream().filter(f -> f.format() != null).count())
        .anyMatch(row -> row.contains(cut) && row.contains(",false,"));

    // The largest file's records come out of every parsing task, not the one task that read it.
    PlannedFile largest = fanned.stream().max(Comparator.comparingLong(PlannedFile::size)).orElseThrow();
    int parsers = 4;
    List<Long> recordsPerTask = FanOut.rows(JavaSparkContext.fromSparkContext(spark.sparkContext()), List.of(largest),
            settings, HadoopFiles.Settings.of(spark.sparkContext().hadoopConfiguration()), parsers, 64 * 1024)
        .mapPartitions(rows -> {
          long records = 0;
          while (rows.hasNext()) {
            records += rows.next().isNullAt(IngestOutput.RECORDS.ordinal()) ? 0 : 1;
          }
          return List.of(records).iterator();
        }).collect();
    assertThat(recordsPerTask).hasSize(parsers).allMatch(records -> records > 0);
  }

  /** An output's rows as text, sorted: equal sets of rows whatever task wrote them. */
  private static List<String> rows(SparkSession spark, String out, IngestOutput output) {
    return EngineFactsStage.read(spark, out, output).collectAsList().stream().map(Row::toString).sorted().toList();
  }
}

package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * The job's command line: the ingest options of {@code kvscope ingest}, which {@code kvscope scope}
 * passes on, and what they do in the job's ingest tasks.
 */
class JobArgumentsTest {

  @Test
  void theIngestOptionsAreReadAsKvscopeIngestReadsThem() {
    JobArguments arguments = JobArguments.parse(new String[] {"logs", "--out", "out", "--tenant-key", "a.b, c",
        "more-logs", "--tenant-key", "d", "--node", "gpu-7", "--mapping", "/etc/map.json", "--salt-work", "64"}, "local[2]");

    assertThat(arguments.inputs()).containsExactly("logs", "more-logs");
    assertThat(arguments.out()).isEqualTo("out");
    assertThat(arguments.master()).isEqualTo("local[2]");
    assertThat(arguments.saltWork()).isEqualTo(64);
    assertThat(arguments.ingest()).isEqualTo(new IngestOptions(List.of("a.b", "c", "d"), "gpu-7", Path.of("/etc/map.json")));
  }

  @Test
  void withoutIngestOptionsTheJobIngestsWithTheDefaults() {
    JobArguments arguments = JobArguments.parse(new String[] {"logs", "--out", "out", "--master", "spark://h:7077"}, "local[*]");

    assertThat(arguments.master()).isEqualTo("spark://h:7077");
    assertThat(arguments.ingest()).isEqualTo(IngestOptions.defaults());
  }

  @Test
  void nodeAliasesAreReadByIngestsRuleAndAnAliasGivenAsTwoNodesIsAUsageError() {
    JobArguments arguments = JobArguments.parse(new String[] {"logs", "--out", "out", "--node-alias",
        "10.0.0.1:30000=prefill-a0", "--node-alias", " pod-7 = decode-b1 ", "--node-alias", "pod-7=decode-b1"}, "local[*]");

    assertThat(arguments.ingest().nodeAliases())
        .isEqualTo(Map.of("10.0.0.1:30000", "prefill-a0", "pod-7", "decode-b1"));
    assertThatThrownBy(() -> JobArguments.parse(new String[] {"logs", "--out", "out", "--node-alias", "pod-7=decode-b1",
        "--node-alias", "pod-7=prefill-a0"}, "local[*]"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names pod-7 as two nodes");
    assertThatThrownBy(() -> JobArguments.parse(new String[] {"logs", "--out", "out", "--node-alias", "pod-7="}, "local[*]"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--node-alias needs ALIAS=NODE");
  }

  @Test
  void anOptionTheJobDoesNotTakeOrOneWithoutItsValueIsAUsageError() {
    assertThatThrownBy(() -> JobArguments.parse(new String[] {"logs", "--out", "out", "--index", "i"}, "local[*]"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not take --index");
    assertThatThrownBy(() -> JobArguments.parse(new String[] {"logs", "--out", "out", "--node"}, "local[*]"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--node needs a value");
    assertThatThrownBy(() -> JobArguments.parse(new String[] {"logs"}, "local[*]"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--out");
  }

  /**
   * On a generated gateway file (the fixture of {@link ScopeJobTest}, no run of its own), a tenant
   * key on the job's command line gives each request the tenant the single-machine ingest gives it
   * with that key, which is not the tenant of the default keys.
   */
  @Test
  void aTenantKeyGivenToTheJobChoosesTheTenantAsTheSingleMachineIngestDoes() throws IOException {
    Path gateway;
    Path incident = LocalRun.shared().incident();
    try (Stream<Path> files = Files.walk(incident)) {
      gateway = files.filter(p -> p.getFileName().toString().matches("litellm-.*\\.jsonl"))
          .filter(p -> !p.startsWith(incident.resolve("late"))).sorted().findFirst().orElseThrow();
    }
    JobArguments arguments = JobArguments.parse(new String[] {gateway.toString(), "--out", "out", "--tenant-key",
        "metadata.user_api_key_user_id"}, "local[2]");
    IngestSettings settings = IngestSettings.of(arguments.ingest());
    HadoopFiles.Settings hadoop = HadoopFiles.Settings.of(new Configuration());

    List<Row> rows = new ArrayList<>();
    for (PlannedFile listed : HadoopFiles.list(arguments.inputs(), new Configuration())) {
      IngestStage.ingest(InputPlan.detect(listed, settings, hadoop), settings, hadoop).forEachRemaining(rows::add);
    }
    // Through the one-pass schema, as the stage's rows go, so that each struct is read by its names.
    Map<String, String> tenants = new TreeMap<>();
    Dataset<Row> ingested = SharedSpark.session().createDataFrame(rows, IngestStage.ONE_PASS);
    String column = IngestOutput.RECORDS.folder();
    ingested.filter(ingested.col(column).isNotNull()).select(column + ".*").collectAsList().forEach(row -> {
      RequestRecord request = (RequestRecord) IngestOutput.RECORDS.fromRow(row);
      tenants.put(request.requestId(), request.tenant());
    });

    assertThat(tenants).isNotEmpty().isEqualTo(singleMachineTenants(gateway, arguments.ingest()))
        .isNotEqualTo(singleMachineTenants(gateway, IngestOptions.defaults()));
  }

  /** Each request's tenant as {@code kvscope ingest} reads the file with {@code options}. */
  private static Map<String, String> singleMachineTenants(Path file, IngestOptions options) throws IOException {
    InputFile input = new InputFile(file, file.toString(), 0);
    Map<String, String> tenants = new TreeMap<>();
    Ingestors.discover().detect(input.sniff(), options).orElseThrow().parse(input, options, new RecordSink() {
      @Override
      public void accept(Ingested item) {
        if (item instanceof RequestRecord request) {
          tenants.put(request.requestId(), request.tenant());
        }
      }

      @Override
      public void malformed(BadInput bad, String raw) {}
    });
    return tenants;
  }
}

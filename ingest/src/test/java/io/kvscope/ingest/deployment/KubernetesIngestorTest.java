package io.kvscope.ingest.deployment;

import static io.kvscope.ingest.engine.LogFiles.utc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.kvscope.ingest.CollectingSink;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.VersionOrigin;
import io.kvscope.ingest.record.VersionRecord;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fixtures written the way kubectl prints pods and the way workload manifests are written. */
class KubernetesIngestorTest {

  @TempDir Path dir;

  private CollectingSink parse(Path file) throws IOException {
    CollectingSink sink = new CollectingSink();
    new KubernetesIngestor().parse(new InputFile(file), IngestOptions.defaults(), sink);
    return sink;
  }

  @Test
  void aPodListGivesEachEngineContainersReleaseSinceItStartedAndThePodsAddresses() throws IOException {
    Path file = Fixtures.copy("pods.json", dir);
    assertThat(Ingestors.discover().detect(new InputFile(file), IngestOptions.defaults()))
        .hasValueSatisfying(i -> assertThat(i.name()).isEqualTo("kubernetes"));
    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.versions()).extracting(VersionRecord::node, VersionRecord::origin, VersionRecord::version,
            VersionRecord::from, VersionRecord::to)
        .containsExactly(
            // the running container: this image since it started
            tuple("sglang-prefill-0", VersionOrigin.POD_STATUS, "0.5.19", utc("2026-08-27T09:39:53Z"), null),
            tuple("sglang-prefill-0", VersionOrigin.POD_SPEC, "0.5.19", utc("2026-08-27T09:38:12Z"),
                utc("2026-08-27T09:39:53Z")),
            // a private image by digest: an SGLang server (its command says so) of unknown release
            tuple("sglang-decode-0", VersionOrigin.POD_STATUS, null, utc("2026-09-03T02:14:33Z"), null),
            tuple("sglang-decode-0", VersionOrigin.POD_SPEC, null, utc("2026-08-27T09:52:40Z"),
                utc("2026-09-03T02:14:33Z")));
    assertThat(sink.versions()).allSatisfy(v -> assertThat(v.engine()).isEqualTo("sglang"));
    assertThat(sink.versions().get(0).image()).isEqualTo("docker.io/lmsysorg/sglang:v0.5.19-cu126");
    // the router sidecar is not an engine: no record of it
    assertThat(sink.versions()).noneSatisfy(v -> assertThat(v.image()).contains("router"));
    assertThat(sink.aliases()).extracting(NodeAlias::node, NodeAlias::alias, NodeAlias::origin)
        .containsExactly(
            tuple("sglang-prefill-0", "10.20.1.10:30000", AliasOrigin.KUBERNETES),
            tuple("sglang-prefill-0", "10.20.1.10:8998", AliasOrigin.KUBERNETES),
            tuple("sglang-prefill-0", "10.20.1.10", AliasOrigin.KUBERNETES),
            tuple("sglang-decode-0", "10.20.1.20:30001", AliasOrigin.KUBERNETES),
            tuple("sglang-decode-0", "10.20.1.20", AliasOrigin.KUBERNETES));
    assertThat(sink.versions()).extracting(VersionRecord::sourceLine).allSatisfy(l -> assertThat(l).isGreaterThan(1));
  }

  @Test
  void workloadTemplatesCoverTheirPodsUndatedUnlessNeverChanged() throws IOException {
    Path file = Fixtures.copy("workloads.yaml", dir);
    assertThat(Ingestors.discover().detect(new InputFile(file), IngestOptions.defaults()))
        .hasValueSatisfying(i -> assertThat(i.name()).isEqualTo("kubernetes"));
    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.versions()).extracting(VersionRecord::node, VersionRecord::workload, VersionRecord::engine,
            VersionRecord::version, VersionRecord::from, VersionRecord::origin, VersionRecord::sourceLine)
        .containsExactly(
            // generation 4: the template changed since creation, so it is not dated
            tuple("vllm-chat", true, "vllm", "0.10.1.1", null, VersionOrigin.WORKLOAD_TEMPLATE, 9L),
            tuple("sglang-prefill", true, "sglang", "0.4.6.post1", utc("2026-08-20T00:00:00Z"),
                VersionOrigin.WORKLOAD_TEMPLATE, 33L),
            // tagged latest: an SGLang workload whose release the record does not name
            tuple("sglang-canary", true, "sglang", null, null, VersionOrigin.WORKLOAD_TEMPLATE, 55L));
    assertThat(sink.aliases()).isEmpty();
  }

  @Test
  void aBrokenDocumentIsReportedWithItsLineAndNothingIsInvented() throws IOException {
    CollectingSink sink = parse(Fixtures.copy("broken.yaml", dir));

    assertThat(sink.bad).singleElement().satisfies(b -> {
      assertThat(b.line()).isBetween(9L, 10L);
      assertThat(b.reason()).startsWith("YAML cannot be read");
    });
    assertThat(sink.versions()).isEmpty();
  }

  @Test
  void aFirstYamlDocumentLargerThanTheHeadDoesNotHideThePodsAfterIt() throws IOException {
    // The attack used 120 MB; anything past the detection head takes the same path.
    Path file = dir.resolve("pods.yaml");
    java.nio.file.Files.writeString(file, "--- \"" + "x".repeat(io.kvscope.ingest.Sniff.HEAD_BYTES + 1024) + "\"\n---\n"
        + java.nio.file.Files.readString(Fixtures.copy("workloads.yaml", dir)));
    assertThat(Ingestors.discover().detect(new InputFile(file), IngestOptions.defaults()))
        .hasValueSatisfying(i -> assertThat(i.name()).isEqualTo("kubernetes"));
    assertThat(parse(file).versions()).isNotEmpty();

    Path notes = dir.resolve("notes.yaml");
    java.nio.file.Files.writeString(notes, "title: " + "y".repeat(io.kvscope.ingest.Sniff.HEAD_BYTES + 1024) + "\n");
    assertThat(Ingestors.discover().detect(new InputFile(notes), IngestOptions.defaults()))
        .as("a YAML mapping that is no Kubernetes object is not claimed").isEmpty();
  }
}

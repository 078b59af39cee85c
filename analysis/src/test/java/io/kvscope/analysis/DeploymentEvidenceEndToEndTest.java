package io.kvscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import io.kvscope.analysis.report.ReportWriters;
import io.kvscope.analysis.report.WriteOptions;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.IndexIngest;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.store.IndexStore;
import io.kvscope.index.IngestProgress;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.TypedDocs;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.record.EngineEvent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deployment records, node names and vLLM request lines, end to end: fixture files written from
 * the upstream formats (SGLang's server_args and request logger, Prometheus's federation output,
 * kubectl's pod listing, vLLM's request logger, LiteLLM's payloads) are ingested into a real index
 * and analysed.
 */
class DeploymentEvidenceEndToEndTest {

  @TempDir Path tmp;

  private Path inputs(String... fixtures) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("in-" + String.join("-", fixtures).hashCode()));
    for (String name : fixtures) {
      try (InputStream in = getClass().getResourceAsStream("/fixtures/pd/" + name)) {
        Files.copy(in, dir.resolve(name));
      }
      Files.setLastModifiedTime(dir.resolve(name), FileTime.from(Instant.parse("2026-09-10T00:00:00Z")));
    }
    return dir;
  }

  private Report analyze(Path in, IngestOptions options) throws IOException {
    Path index = tmp.resolve("index-" + in.getFileName());
    try (IndexStore store = IndexStore.open(index)) {
      new IndexIngest(store, Ingestors.discover(), options, IngestProgress.NONE, Clock.systemUTC()).run(List.of(in));
    }
    try (IndexSearch search = IndexSearch.open(index)) {
      return Analysis.standard().run(search, AnalysisOptions.defaults(), Analysis.Progress.NONE);
    }
  }

  private static List<Window> vulnerable(Report report) {
    return report.windows().stream().filter(w -> w.kind() == Window.Kind.VULNERABLE).toList();
  }

  private static List<Finding> findings(Report report, FindingKind kind) {
    return report.findings().stream().filter(f -> f.kind() == kind).toList();
  }

  @Test
  void withoutADeploymentRecordTheVersionIsUnknownNeverConfirmedUnpatched() throws IOException {
    Report report = analyze(inputs("sglang-prefill-0.log"), IngestOptions.defaults());

    assertThat(findings(report, FindingKind.CONFIG_UNPATCHED_ENGINE)).as("no version, no unpatched claim").isEmpty();
    assertThat(findings(report, FindingKind.CONFIG_ENGINE_VERSION_UNKNOWN)).singleElement().satisfies(f -> {
      assertThat(f.confidence()).isEqualTo(Confidence.SUSPECT);
      assertThat(f.node()).isEqualTo("sglang-prefill-0");
      Evidence.Config evidence = (Evidence.Config) f.evidence();
      assertThat(evidence.observed()).isEqualTo("unknown");
      assertThat(evidence.provide()).contains("kubectl get pod").contains("/get_server_info")
          .contains("node,from,to,version");
      assertThat(evidence.exploitableIfUnpatched()).isTrue();
    });
    assertThat(vulnerable(report)).singleElement().satisfies(w -> {
      assertThat(w.engineVersion()).isEqualTo(Window.UNKNOWN_VERSION);
      assertThat(w.reason()).contains("engine version unknown");
    });

    Path out = tmp.resolve("reports");
    ReportWriters.writeAll(report, out, WriteOptions.defaults());
    String json = Files.readString(out.resolve("report.json"));
    assertThat(json).contains("\"engine_version\" : \"unknown\"").contains("config_engine_version_unknown")
        .doesNotContain("config_unpatched_engine");
    assertThat(Files.readString(out.resolve("report.md"))).contains("**unknown**").contains("Engine version unknown");
    assertThat(Files.readString(out.resolve("report.html"))).contains("unknown-version-note");
  }

  @Test
  void aPodRecordDatesTheReleaseSoUnpatchedIsConfirmedAndAnUndatedTemplateOnlyProbable() throws IOException {
    Report dated = analyze(inputs("sglang-prefill-0.log", "pods.yaml"), IngestOptions.defaults());

    assertThat(findings(dated, FindingKind.CONFIG_ENGINE_VERSION_UNKNOWN)).isEmpty();
    assertThat(findings(dated, FindingKind.CONFIG_UNPATCHED_ENGINE)).singleElement().satisfies(f -> {
      assertThat(f.confidence()).isEqualTo(Confidence.CONFIRMED);
      assertThat(((Evidence.Config) f.evidence()).observed()).isEqualTo("0.5.19");
      assertThat(((Evidence.Config) f.evidence()).versionSource()).contains("Kubernetes pod status")
          .contains("lmsysorg/sglang:v0.5.19-cu126").contains("pods.yaml");
    });
    assertThat(vulnerable(dated)).singleElement().satisfies(w -> assertThat(w.engineVersion()).isEqualTo("0.5.19"));

    Report inferred = analyze(inputs("sglang-prefill-0.log", "statefulset.yaml"), IngestOptions.defaults());
    assertThat(findings(inferred, FindingKind.CONFIG_UNPATCHED_ENGINE)).singleElement()
        .satisfies(f -> assertThat(f.confidence()).isEqualTo(Confidence.PROBABLE));
  }

  @Test
  void theSameHostUnderTwoAliasesIsOneNodeWithOneWindow() throws IOException {
    // The federate dump names the prefill node by its scrape target, the logs by their file. Nothing
    // ties the two but what the requests show: the decode server names its prefill peer 10.20.1.10,
    // and the prefill node logged the same bootstrap rooms.
    Report joined = analyze(inputs("sglang-prefill-0.log", "sglang-decode-0.log", "federate-20260901T000000Z.txt"),
        IngestOptions.defaults());
    assertThat(vulnerable(joined)).extracting(Window::node).containsExactly("sglang-prefill-0");
    assertThat(findings(joined, FindingKind.CONFIG_POOL_BELOW_CONTEXT)).extracting(Finding::node)
        .containsExactly("sglang-prefill-0");

    // Without the request lines nothing says 10.20.1.10:30000 is that node: two nodes, two windows.
    Path apart = inputs("sglang-prefill-0.log", "federate-20260901T000000Z.txt");
    Files.writeString(apart.resolve("sglang-prefill-0.log"), Files.readAllLines(apart.resolve("sglang-prefill-0.log"))
        .stream().filter(l -> !l.contains("Receive:")).reduce("", (a, b) -> a + b + "\n"));
    Report separate = analyze(apart, IngestOptions.defaults());
    assertThat(vulnerable(separate)).extracting(Window::node)
        .containsExactlyInAnyOrder("sglang-prefill-0", "10.20.1.10:30000");

    // The user can say so, and the pod record says so too.
    Report told = analyze(apart, IngestOptions.defaults().withNodeAliases(Map.of("10.20.1.10:30000", "sglang-prefill-0")));
    assertThat(vulnerable(told)).extracting(Window::node).containsExactly("sglang-prefill-0");
    Report podded = analyze(inputs("sglang-prefill-0.log", "federate-20260901T000000Z.txt", "pods.yaml"),
        IngestOptions.defaults());
    assertThat(vulnerable(podded)).extracting(Window::node).containsExactly("sglang-prefill-0");
  }

  @Test
  void vllmRequestsAreScopedFromItsPerRequestLines() throws IOException {
    Path in = inputs("vllm-0.log", "litellm-2026-08-27.jsonl");
    Report report = analyze(in, IngestOptions.defaults());

    assertThat(findings(report, FindingKind.OVER_LENGTH_ACCEPTED)).singleElement().satisfies(f -> {
      assertThat(f.engineRid()).isEqualTo("5f1e2d3c4b5a49687766554433221100");
      assertThat(f.decodeNode()).isEqualTo("vllm-0");
    });
    assertThat(findings(report, FindingKind.OVER_LENGTH_ACCEPTED)).noneMatch(f -> f.engineRid() != null
        && f.engineRid().startsWith("0a9b8c7d"));

    Path index = tmp.resolve("index-" + in.getFileName());
    List<EngineEvent> events = new ArrayList<>();
    List<String[]> requests = new ArrayList<>();
    try (IndexSearch search = IndexSearch.open(index)) {
      TypedDocs.forEach(search.reader(), Schema.TYPE_ENGINE_EVENT, d -> events.add(Documents.readEngineEvent(d)));
      TypedDocs.forEach(search.reader(), Schema.TYPE_REQUEST, d -> requests.add(new String[] {
          d.get(Schema.ENGINE_RID), d.get(Schema.DECODE_NODE), d.get(Schema.PREFILL_NODE)}));
    }
    assertThat(requests).as("both gateway records joined to the vLLM node by their response ids")
        .allSatisfy(r -> assertThat(r[1]).isEqualTo("vllm-0"))
        .allSatisfy(r -> assertThat(r[2]).isEqualTo("vllm-0"))
        .hasSize(2);
    assertThat(events).filteredOn(e -> e.kind() == EngineEvent.Kind.REJECTED).singleElement()
        .satisfies(e -> assertThat(e.rid()).isEqualTo("ffeeddccbbaa49887766554433221100"));
    assertThat(events).filteredOn(e -> e.kind() == EngineEvent.Kind.FINISHED).singleElement()
        .satisfies(e -> assertThat(e.finishReason()).isEqualTo("stop"));
  }
}

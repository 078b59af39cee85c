package io.kvscope.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.TestFiles.Packing;
import io.kvscope.ingest.arrow.CanonicalArrowWriter;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class IngestorsDetectTest {

  /** A LiteLLM payload, trimmed but in LiteLLM's field order. */
  private static final String LITELLM = "{\"id\":\"4c2a\",\"trace_id\":\"t-1\",\"call_type\":\"acompletion\","
      + "\"status\":\"success\",\"startTime\":1787824800.1,\"endTime\":1787824801.2,\"model\":\"qwen3\","
      + "\"metadata\":{\"user_api_key_org_id\":\"org-a\"},\"model_group\":\"qwen3-long\","
      + "\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}],"
      + "\"response\":{\"id\":\"chatcmpl-9\",\"choices\":[{\"finish_reason\":\"stop\",\"message\":{\"content\":\"ok\"}}]}}";

  private static final String OTLP = "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
      + "\"value\":{\"stringValue\":\"gw\"}}]},\"scopeSpans\":[{\"spans\":[{\"traceId\":\"5b8efff798038103d269b633813fc60c\","
      + "\"spanId\":\"051581bf3cb55c13\",\"name\":\"chat\",\"startTimeUnixNano\":\"1787824800000000000\","
      + "\"endTimeUnixNano\":\"1787824801000000000\",\"attributes\":[{\"key\":\"gen_ai.response.id\","
      + "\"value\":{\"stringValue\":\"chatcmpl-1\"}}]}]}]}]}";

  private static final String CUSTOM = "{\"req\":{\"id\":\"c-1\"},\"who\":\"org-x\",\"when\":\"2026-08-27T10:00:00Z\"}";

  @TempDir Path dir;

  private final Ingestors ingestors = Ingestors.discover();

  private Optional<String> detect(Path file, IngestOptions options) throws IOException {
    return ingestors.detect(new InputFile(file), options).map(Ingestor::name);
  }

  private Optional<String> detect(Path file) throws IOException {
    return detect(file, IngestOptions.defaults());
  }

  private Path lines(String name, Packing packing, String... lines) throws IOException {
    return TestFiles.writeLines(dir.resolve(name), List.of(lines), packing);
  }

  private Path mapping(String requestIdPointer) throws IOException {
    return Files.writeString(dir.resolve("mapping-" + requestIdPointer.hashCode() + ".json"),
        "{\"fields\":{\"request_id\":\"" + requestIdPointer + "\",\"tenant\":\"/who\"},\"time_unit\":\"iso8601\"}");
  }

  @Test
  void discoversEveryRegisteredFormat() {
    assertThat(ingestors.all()).extracting(Ingestor::name)
        .containsExactly("litellm", "litellm-stdout", "otlp", "custom-jsonl", "arrow", "sglang-log", "vllm-log",
            "prometheus", "kubernetes", "sglang-server-info", "deployment-manifest");
    assertThat(ingestors.byName("otlp")).isPresent();
    assertThat(ingestors.all()).allSatisfy(i -> assertThat(i.description()).isNotBlank());
    assertThat(ingestors.all()).filteredOn(Ingestor::resumableByLine).extracting(Ingestor::name)
        .containsExactly("litellm", "litellm-stdout", "otlp", "custom-jsonl");
  }

  @ParameterizedTest
  @EnumSource(Packing.class)
  void detectsEachFormatByContentWhateverTheExtension(Packing packing) throws IOException {
    assertThat(detect(lines("traces.arrow", packing, LITELLM.formatted("hi"), LITELLM.formatted("again"))))
        .contains("litellm");
    assertThat(detect(lines("gateway.jsonl", packing, OTLP, OTLP))).contains("otlp");
    Path custom = lines("otlp.json", packing, CUSTOM);
    assertThat(detect(custom, IngestOptions.defaults().withMappingFile(mapping("/req/id")))).contains("custom-jsonl");

    Path arrowPlain = dir.resolve("records.plain");
    try (CanonicalArrowWriter out = new CanonicalArrowWriter(arrowPlain)) {
      out.write(RequestRecord.builder("a-1").tenant("org-a").build());
    }
    Path arrow = TestFiles.write(dir.resolve("litellm.jsonl"), Files.readAllBytes(arrowPlain), packing);
    assertThat(detect(arrow)).contains("arrow");
  }

  @Test
  void detectsLiteLlmWhenTheFirstLineIsLongerThanTheSniffedHead() throws IOException {
    String prompt = "lorem ipsum ".repeat(300_000); // 3.6 MB, far past the 256 KiB head
    Path file = lines("huge.log", Packing.GZIP, LITELLM.formatted(prompt));
    assertThat(Files.size(file)).isLessThan(Sniff.HEAD_BYTES); // compressed small, decompressed huge
    assertThat(detect(file)).contains("litellm");
  }

  @Test
  void looksPastADamagedFirstLine() throws IOException {
    assertThat(detect(lines("a.txt", Packing.PLAIN, "{\"id\": \"cut", LITELLM.formatted("x")))).contains("litellm");
    assertThat(detect(lines("b.txt", Packing.PLAIN, "", "garbage", OTLP))).contains("otlp");
  }

  @Test
  void anExplicitMappingWinsWhenItsRequestIdResolves() throws IOException {
    Path litellm = lines("gateway.log", Packing.PLAIN, LITELLM.formatted("hi"));
    assertThat(detect(litellm, IngestOptions.defaults().withMappingFile(mapping("/id")))).contains("custom-jsonl");
    // a mapping for some other schema does not capture a LiteLLM file
    assertThat(detect(litellm, IngestOptions.defaults().withMappingFile(mapping("/req/id")))).contains("litellm");
    // and a custom file without its mapping is no known format
    assertThat(detect(lines("custom.jsonl", Packing.PLAIN, CUSTOM))).isEmpty();
  }

  @Test
  void returnsEmptyForFilesOfNoKnownFormat() throws IOException {
    assertThat(detect(lines("server.log", Packing.PLAIN,
        "[2026-08-27 10:00:00 TP0] Prefill batch, #new-seq: 1, #new-token: 1, #cached-token: 0, token usage: 0.01",
        "[2026-08-27 10:00:01 TP0] Decode batch, #running-req: 3, #token: 7000, token usage: 0.02")))
        .as("engine logs belong to the engine ingestors, not to any gateway format").contains("sglang-log");
    assertThat(detect(lines("app.jsonl", Packing.PLAIN, "{\"level\":\"info\",\"msg\":\"started\",\"id\":\"1\"}")))
        .isEmpty();
    assertThat(detect(lines("metrics.otlp.jsonl", Packing.PLAIN, "{\"resourceMetrics\":[]}"))).isEmpty();
    assertThat(detect(lines("notes.md", Packing.GZIP, "# Incident notes", "Nothing structured here."))).isEmpty();
    assertThat(detect(Files.write(dir.resolve("empty.jsonl"), new byte[0]))).isEmpty();
    assertThat(detect(Files.write(dir.resolve("noise.bin"), new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
        (byte) 0xFF, 0x10, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}))).isEmpty();
    // the magic alone is not enough: an Arrow schema must follow it
    assertThat(detect(Files.write(dir.resolve("ARROW1.txt"), "ARROW1 is the Arrow magic".getBytes()))).isEmpty();
  }
}

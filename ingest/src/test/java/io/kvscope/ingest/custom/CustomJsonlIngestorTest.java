package io.kvscope.ingest.custom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvscope.ingest.CollectingSink;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.TestFiles.Packing;
import io.kvscope.ingest.TestFiles;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CustomJsonlIngestorTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** 2026-08-27T10:00:00.250Z. */
  private static final long T0_MS = 1_787_824_800_250L;

  @TempDir Path dir;

  private final CustomJsonlIngestor ingestor = new CustomJsonlIngestor();

  private Path mapping(String json) throws IOException {
    return Files.writeString(dir.resolve("mapping.json"), json);
  }

  /** The mapping for {@link #gatewayLine}: nested pointers, one with an escaped slash. */
  private Path gatewayMapping(String timeUnit) throws IOException {
    return mapping("""
        {
          "fields": {
            "request_id": "/req/id",
            "engine_rid": "/upstream/response_id",
            "tenant": "/auth/org",
            "model": "/route/model",
            "deployment": "/route/pool",
            "start_time": "/timing/start",
            "end_time": "/timing/end",
            "status_code": "/http/status",
            "finish_reason": "/reply/finish",
            "prompt_tokens": "/usage/in",
            "completion_tokens": "/usage/out",
            "cached_tokens": "/usage/cache~1hit",
            "bootstrap_room": "/upstream/room",
            "prompt_text": "/body/messages",
            "response_text": "/reply/text"
          },
          "time_unit": "%s"
        }
        """.formatted(timeUnit));
  }

  private static String gatewayLine(String id, String org, Object start, Object end, String prompt) {
    ObjectNode line = JSON.createObjectNode();
    line.putObject("req").put("id", id).put("ip", "10.0.0.9");
    line.putObject("upstream").put("response_id", "chatcmpl-" + id).put("room", 4242);
    line.putObject("auth").put("org", org).put("key_alias", "svc");
    line.putObject("route").put("model", "qwen3-235b").put("pool", "long-context");
    ObjectNode timing = line.putObject("timing");
    timing.set("start", JSON.valueToTree(start));
    timing.set("end", JSON.valueToTree(end));
    line.putObject("http").put("status", 200);
    var messages = line.putObject("body").putArray("messages");
    messages.addObject().put("role", "system").put("content", "Be precise.");
    messages.addObject().put("role", "user").put("content", prompt);
    line.putObject("reply").put("finish", "stop").put("text", "Answer for " + id);
    line.putObject("usage").put("in", 900).put("out", "12").put("cache/hit", 512);
    line.put("an_unmapped_field", "ignored");
    return line.toString();
  }

  private CollectingSink parse(Path file, Path mapping) throws IOException {
    CollectingSink sink = new CollectingSink();
    ingestor.parse(new InputFile(file), IngestOptions.defaults().withMappingFile(mapping), sink);
    return sink;
  }

  @Test
  void mapsEveryConfiguredPointer() throws IOException {
    Path file = TestFiles.writeLines(dir.resolve("gw.jsonl"),
        List.of(gatewayLine("a1", "org-acme", T0_MS, T0_MS + 1500, "Reconcile invoice 17")), Packing.PLAIN);

    CollectingSink sink = parse(file, gatewayMapping("ms"));

    assertThat(sink.bad).isEmpty();
    RequestRecord r = sink.records().getFirst();
    assertThat(r.requestId()).isEqualTo("a1");
    assertThat(r.engineRid()).isEqualTo("a1");
    assertThat(r.tenant()).isEqualTo("org-acme");
    assertThat(r.model()).isEqualTo("qwen3-235b");
    assertThat(r.deployment()).isEqualTo("long-context");
    assertThat(r.startTime()).isEqualTo(T0_MS);
    assertThat(r.endTime()).isEqualTo(T0_MS + 1500);
    assertThat(r.firstTokenTime()).isNull(); // not mapped
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.finishReason()).isEqualTo("stop");
    assertThat(r.promptTokens()).isEqualTo(900L);
    assertThat(r.completionTokens()).isEqualTo(12L); // a number in a string
    assertThat(r.cachedTokens()).isEqualTo(512L);
    assertThat(r.bootstrapRoom()).isEqualTo(4242L);
    assertThat(r.promptText()).isEqualTo("Be precise.\nReconcile invoice 17");
    assertThat(r.promptChars()).isEqualTo((long) r.promptText().length());
    assertThat(r.responseText()).isEqualTo("Answer for a1");
    assertThat(r.sourceLine()).isEqualTo(1);
  }

  @Test
  void readsEachTimeUnit() throws IOException {
    record Case(String unit, Object start) {}
    List<Case> cases = List.of(
        new Case("s", 1_787_824_800.25),
        new Case("ms", T0_MS),
        new Case("us", T0_MS * 1000),
        new Case("ns", T0_MS * 1_000_000),
        new Case("iso8601", "2026-08-27T10:00:00.250Z"),
        new Case("iso8601", "2026-08-27T12:00:00.250+02:00"),
        new Case("auto", 1_787_824_800.25),
        new Case("auto", T0_MS),
        new Case("auto", Long.toString(T0_MS * 1000)),
        new Case("auto", "2026-08-27 10:00:00.250"));
    for (Case c : cases) {
      Path file = TestFiles.writeLines(dir.resolve("t.jsonl"),
          List.of(gatewayLine("t", "org", c.start(), null, "p")), Packing.PLAIN);
      CollectingSink sink = parse(file, gatewayMapping(c.unit()));
      assertThat(sink.bad).as(c.toString()).isEmpty();
      assertThat(sink.records().getFirst().startTime()).as(c.toString()).isEqualTo(T0_MS);
      assertThat(sink.records().getFirst().endTime()).as(c.toString()).isNull();
    }
  }

  @Test
  void keepsGoodLinesAndReportsBadOnesWithTheirNumbers() throws IOException {
    String secret = "acct 9911-2233";
    List<String> lines = new ArrayList<>();
    lines.add(gatewayLine("g1", "org-a", T0_MS, T0_MS + 1, "fine"));
    lines.add("{\"req\": {\"id\": \"cut\"}, \"body\": \"" + secret); // cut short
    lines.add(gatewayLine("g3", "org-a", T0_MS, T0_MS + 1, "fine"));
    lines.add(gatewayLine("g4", "org-a", "not a time", T0_MS + 1, secret));
    lines.add("{\"req\": {\"ip\": \"10.0.0.1\"}}"); // request_id pointer resolves to nothing
    lines.add(gatewayLine("g6", "org-a", T0_MS, T0_MS + 1, "fine").replace("\"status\":200", "\"status\":\"OK\""));
    lines.add(gatewayLine("g7", "org-a", T0_MS, T0_MS + 1, "fine").replace("\"org\":\"org-a\"", "\"org\":{\"x\":1}"));
    lines.add("42");
    lines.add(gatewayLine("g9", "org-a", T0_MS, T0_MS + 1, "fine") + " {}");
    lines.add(gatewayLine("g10", "org-a", T0_MS, T0_MS + 1, "fine"));
    Path file = TestFiles.writeLines(dir.resolve("mixed.jsonl"), lines, Packing.PLAIN);

    CollectingSink sink = parse(file, gatewayMapping("ms"));

    assertThat(sink.records()).extracting(RequestRecord::requestId).containsExactly("g1", "g3", "g10");
    assertThat(sink.badLines()).containsExactly(2L, 4L, 5L, 6L, 7L, 8L, 9L);
    assertThat(sink.bad).allSatisfy(b -> assertThat(b.reason()).doesNotContain(secret).doesNotContain("not a time"));
    assertThat(sink.bad.get(1).reason()).startsWith("start_time (/timing/start) is not an epoch number");
    assertThat(sink.bad.get(2).reason()).contains("request_id is required");
    assertThat(sink.bad.get(3).reason()).isEqualTo("status_code (/http/status) is not a whole number");
    assertThat(sink.bad.get(4).reason()).isEqualTo("tenant (/auth/org) is not a string or number");
    assertThat(sink.bad.get(5).reason()).isEqualTo("not a JSON object");
  }

  @Test
  void emitsDuplicatesAndIgnoresUnmappedFields() throws IOException {
    String line = gatewayLine("dup", "org-d", T0_MS, T0_MS + 5, "same");
    Path file = TestFiles.writeLines(dir.resolve("dups.jsonl"), List.of(line, line), Packing.PLAIN);

    CollectingSink sink = parse(file, gatewayMapping("ms"));

    assertThat(sink.bad).isEmpty();
    assertThat(sink.records()).extracting(RequestRecord::requestId).containsExactly("dup", "dup");
  }

  @Test
  void truncatedGzipKeepsTheLinesBeforeTheDamage() throws IOException {
    List<String> lines = IntStream.range(0, 4000)
        .mapToObj(i -> gatewayLine("c" + i, "org-" + (i % 3), T0_MS + i, T0_MS + i + 9, "prompt " + i)).toList();
    Path file = TestFiles.writeLines(dir.resolve("gw.gz"), lines, Packing.GZIP);
    TestFiles.truncate(file, 0.4);
    int recoverable = TestFiles.completeLines(TestFiles.recoverableGzipPrefix(file));

    CollectingSink sink = parse(file, gatewayMapping("ms"));

    assertThat(recoverable).isBetween(100, 3999);
    assertThat(sink.records()).extracting(RequestRecord::requestId)
        .containsExactlyElementsOf(IntStream.range(0, recoverable).mapToObj(i -> "c" + i).toList());
    assertThat(sink.bad).singleElement().satisfies(b -> assertThat(b.line()).isEqualTo(recoverable + 1L));
  }

  @Test
  void readsZstdAndAThreeMegabyteLine() throws IOException {
    String prompt = "Contract clause 14(b) with counterparty ACME-77. ".repeat(65_000); // 3.2 MB
    List<String> lines = List.of(
        gatewayLine("z1", "org", T0_MS, T0_MS + 1, "small"),
        gatewayLine("z2", "org", T0_MS, T0_MS + 1, prompt),
        gatewayLine("z3", "org", T0_MS, T0_MS + 1, "small"));
    Path file = TestFiles.writeLines(dir.resolve("gw.zst"), lines, Packing.ZSTD);

    long started = System.nanoTime();
    CollectingSink sink = parse(file, gatewayMapping("ms"));
    long millis = (System.nanoTime() - started) / 1_000_000;

    assertThat(sink.bad).isEmpty();
    assertThat(sink.records()).extracting(RequestRecord::requestId).containsExactly("z1", "z2", "z3");
    assertThat(sink.records().get(1).promptText()).isEqualTo("Be precise.\n" + prompt);
    assertThat(millis).as("3 MB line, parsed as a tree").isLessThan(5_000);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"fields\": {\"request_id\": \"/id\", \"tenantt\": \"/org\"}}",
      "{\"fields\": {\"request_id\": \"id\"}}",
      "{\"fields\": {\"request_id\": \"\"}}",
      "{\"fields\": {\"tenant\": \"/org\"}}",
      "{\"fields\": {\"request_id\": \"/id\"}, \"time_unit\": \"fortnights\"}",
      "{\"fields\": {\"request_id\": \"/id\", \"source_line\": \"/n\"}}",
      "{\"fields\": {\"request_id\": 7}}",
      "{\"request_id\": \"/id\"}",
      "{\"fields\": {\"request_id\": \"/id\"}, \"timeunit\": \"ms\"}",
      "{\"fields\": {\"request_id\": \"/id\"",
      "[]"})
  void rejectsAnInvalidMappingNamingTheFile(String mappingJson) throws IOException {
    Path mapping = mapping(mappingJson);
    Path file = TestFiles.writeLines(dir.resolve("gw.jsonl"), List.of("{\"id\": \"x\", \"org\": \"o\"}"), Packing.PLAIN);
    IngestOptions options = IngestOptions.defaults().withMappingFile(mapping);

    assertThatThrownBy(() -> ingestor.parse(new InputFile(file), options, new CollectingSink()))
        .isInstanceOf(InvalidMappingException.class)
        .hasMessageStartingWith("mapping file " + mapping + ": ");
    assertThatThrownBy(() -> ingestor.detect(new InputFile(file).sniff(), options))
        .isInstanceOf(InvalidMappingException.class);
  }

  @Test
  void explainsWhatIsWrongWithAMapping() throws IOException {
    Map<String, String> expected = Map.of(
        "{\"fields\": {\"request_id\": \"/id\", \"tenantt\": \"/org\"}}", "unknown canonical field \"tenantt\"",
        "{\"fields\": {\"request_id\": \"id\"}}", "is not a JSON Pointer",
        "{\"fields\": {\"tenant\": \"/org\"}}", "must map \"request_id\"",
        "{\"fields\": {\"request_id\": \"/id\"}, \"time_unit\": \"fortnights\"}", "time_unit \"fortnights\" is not one of auto, s, ms");
    for (Map.Entry<String, String> e : expected.entrySet()) {
      Path mapping = mapping(e.getKey());
      assertThatThrownBy(() -> ingestor.detect(new InputFile(mapping).sniff(),
          IngestOptions.defaults().withMappingFile(mapping)))
          .hasMessageContaining(e.getValue());
    }
    Path missing = dir.resolve("no-such-mapping.json");
    assertThatThrownBy(() -> ingestor.detect(new InputFile(mapping("{}")).sniff(),
        IngestOptions.defaults().withMappingFile(missing)))
        .isInstanceOf(InvalidMappingException.class).hasMessageContaining(missing.toString()).hasMessageContaining("cannot be read");
  }

  @Test
  void aMappingPointedAtAFifoIsRefusedWithoutWaitingForAWriter() throws Exception {
    Path fifo = dir.resolve("mapping.fifo");
    org.junit.jupiter.api.Assumptions.assumeTrue(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0,
        "mkfifo is not available here");
    Path file = TestFiles.writeLines(dir.resolve("gw.jsonl"), List.of("{\"id\": \"x\"}"), Packing.PLAIN);

    org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20), () ->
        assertThatThrownBy(() -> ingestor.detect(new InputFile(file).sniff(), IngestOptions.defaults().withMappingFile(fifo)))
            .isInstanceOf(InvalidMappingException.class).hasMessageContaining("not a regular file"));
  }

  @Test
  void aMappingPointedAtAnotherFileDoesNotEchoItsContent() throws IOException {
    String secret = "Zq secret prompt of a customer";
    Path payload = Files.writeString(dir.resolve("litellm.jsonl"), "{\"" + secret + "\": 1, \"id\": \"x\"}\n");
    Path file = TestFiles.writeLines(dir.resolve("gw.jsonl"), List.of("{\"id\": \"x\"}"), Packing.PLAIN);

    assertThatThrownBy(() -> ingestor.detect(new InputFile(file).sniff(), IngestOptions.defaults().withMappingFile(payload)))
        .isInstanceOf(InvalidMappingException.class).hasMessageContaining("unknown setting")
        .hasMessageNotContaining("secret").hasMessageContaining("(a 30-character name)");
    Path fields = mapping("{\"fields\": {\"request_id\": \"/id\", \"" + secret + "\": \"/x\"}}");
    assertThatThrownBy(() -> ingestor.detect(new InputFile(file).sniff(), IngestOptions.defaults().withMappingFile(fields)))
        .isInstanceOf(InvalidMappingException.class).hasMessageNotContaining("secret");
  }
}

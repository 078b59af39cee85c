package io.kvscope.ingest.otlp;

import static io.kvscope.ingest.otlp.Otlp.json;
import static io.kvscope.ingest.otlp.Otlp.line;
import static io.kvscope.ingest.otlp.Otlp.span;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvscope.ingest.CollectingSink;
import io.kvscope.ingest.Fixtures;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.TestFiles;
import io.kvscope.ingest.TestFiles.Packing;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OtlpIngestorTest {

  private static final String TRACE = "5b8efff798038103d269b633813fc60c";
  /** 2026-08-27T10:00:00.250Z in nanoseconds. */
  private static final long T0 = 1_787_824_800_250_000_000L;
  private static final long T0_MS = 1_787_824_800_250L;
  private static final long MS = 1_000_000L;

  @TempDir Path dir;

  private final OtlpIngestor ingestor = new OtlpIngestor();

  private CollectingSink parse(Path file, IngestOptions options) throws IOException {
    CollectingSink sink = new CollectingSink();
    ingestor.parse(new InputFile(file), options, sink);
    return sink;
  }

  private CollectingSink parse(Path file) throws IOException {
    return parse(file, IngestOptions.defaults());
  }

  private Path write(String name, List<String> lines) throws IOException {
    return TestFiles.writeLines(dir.resolve(name), lines, Packing.PLAIN);
  }

  private static List<Map<String, Object>> messages(String role, String text) {
    return List.of(Map.of("role", role, "parts", List.of(Map.of("type", "text", "content", text))));
  }

  /** A chat span under the current GenAI conventions, as openai-v2 instrumentation emits it. */
  private static Otlp.SpanBuilder chatSpan(String spanId, String responseId, long start) {
    return span(TRACE, spanId, null, "chat qwen3-long", start, start + 2_500 * MS)
        .attr("gen_ai.operation.name", "chat")
        .attr("gen_ai.provider.name", "openai")
        .attr("gen_ai.request.model", "qwen3-long")
        .attr("gen_ai.response.model", "qwen3-235b-a22b")
        .attr("gen_ai.response.id", responseId)
        .attr("gen_ai.usage.input_tokens", 1200L)
        .attr("gen_ai.usage.output_tokens", 34L)
        .attr("gen_ai.usage.cache_read.input_tokens", 1024L)
        .attr("gen_ai.response.finish_reasons", List.of("stop"))
        .attr("server.address", "gateway.internal")
        .attr("server.port", 443L);
  }

  @Test
  void mapsAChatSpanUnderTheCurrentConventions() throws IOException {
    String input = json(List.of(
        Map.of("role", "system", "parts", List.of(Map.of("type", "text", "content", "Be brief."))),
        Map.of("role", "user", "parts", List.of(
            Map.of("type", "text", "content", "What is our refund policy?"),
            Map.of("type", "uri", "modality", "image", "uri", "https://x/y.png")))));
    ObjectNode chat = chatSpan("051581bf3cb55c13", "chatcmpl-9a8b7c", T0)
        .attr("gen_ai.input.messages", input)
        .attr("gen_ai.output.messages", json(List.of(Map.of("role", "assistant", "finish_reason", "stop",
            "parts", List.of(Map.of("type", "text", "content", "Refunds within 30 days."))))))
        .attr("http.response.status_code", 200L)
        .attr("gen_ai.response.time_to_first_chunk", 0.4)
        .build();
    Path file = write("traces.jsonl", List.of(line(Map.of("service.name", "gateway", "tenant.id", "org-acme"),
        List.of(chat))));

    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    RequestRecord r = sink.records().getFirst();
    assertThat(r.requestId()).isEqualTo("chatcmpl-9a8b7c");
    assertThat(r.engineRid()).isEqualTo("9a8b7c");
    assertThat(r.tenant()).isEqualTo("org-acme");
    assertThat(r.model()).isEqualTo("qwen3-long");
    assertThat(r.startTime()).isEqualTo(T0_MS);
    assertThat(r.endTime()).isEqualTo(T0_MS + 2500);
    assertThat(r.firstTokenTime()).isEqualTo(T0_MS + 400);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.finishReason()).isEqualTo("stop");
    assertThat(r.promptTokens()).isEqualTo(1200L);
    assertThat(r.completionTokens()).isEqualTo(34L);
    assertThat(r.cachedTokens()).isEqualTo(1024L);
    assertThat(r.promptText()).isEqualTo("Be brief.\nWhat is our refund policy?");
    assertThat(r.responseText()).isEqualTo("Refunds within 30 days.");
    assertThat(r.sourceLine()).isEqualTo(1);
  }

  @Test
  void olderAttributeNamesGiveTheSameRecord() throws IOException {
    ObjectNode current = chatSpan("00000000000000a1", "chatcmpl-same", T0)
        .attr("gen_ai.input.messages", json(messages("user", "Hello there")))
        .attr("gen_ai.output.messages", json(messages("assistant", "General Kenobi")))
        .build();
    ObjectNode older = span(TRACE, "00000000000000a2", null, "openai.chat", T0, T0 + 2_500 * MS)
        .attr("gen_ai.system", "openai")
        .attr("gen_ai.request.model", "qwen3-long")
        .attr("gen_ai.response.id", "chatcmpl-same")
        .attr("gen_ai.usage.prompt_tokens", 1200L)
        .attr("gen_ai.usage.completion_tokens", 34L)
        .attr("gen_ai.usage.cache_read_input_tokens", 1024L)
        .attr("gen_ai.response.finish_reasons", List.of("stop"))
        .attr("gen_ai.prompt", json(List.of(Map.of("role", "user", "content", "Hello there"))))
        .attr("gen_ai.completion", "General Kenobi")
        .build();
    ObjectNode openLlmetry = span(TRACE, "00000000000000a3", null, "openai.chat", T0, T0 + 2_500 * MS)
        .attr("gen_ai.request.model", "qwen3-long")
        .attr("gen_ai.response.id", "chatcmpl-same")
        .attr("gen_ai.usage.prompt_tokens", 1200L)
        .attr("gen_ai.usage.completion_tokens", 34L)
        .attr("gen_ai.usage.cache_read_input_tokens", 1024L)
        .attr("gen_ai.response.finish_reasons", List.of("stop"))
        .attr("gen_ai.prompt.0.role", "user")
        .attr("gen_ai.prompt.0.content", "Hello there")
        .attr("gen_ai.completion.0.role", "assistant")
        .attr("gen_ai.completion.0.content", "General Kenobi")
        .build();
    Path file = write("generations.jsonl", List.of(line(Map.of(), List.of(current, older, openLlmetry))));

    List<RequestRecord> records = parse(file).records();

    assertThat(records).hasSize(3);
    RequestRecord expected = records.getFirst();
    assertThat(records).allSatisfy(r -> {
      assertThat(r.requestId()).isEqualTo("chatcmpl-same");
      assertThat(r.promptTokens()).isEqualTo(1200L);
      assertThat(r.completionTokens()).isEqualTo(34L);
      assertThat(r.cachedTokens()).isEqualTo(1024L);
      assertThat(r.promptText()).isEqualTo("Hello there");
      assertThat(r.responseText()).isEqualTo("General Kenobi");
      assertThat(r.statusCode()).isEqualTo(expected.statusCode()).isEqualTo(200);
    });
  }

  @Test
  void readsContentFromSpanEvents() throws IOException {
    ObjectNode conventionEvents = span(TRACE, "00000000000000b1", null, "chat qwen3-long", T0, T0 + 900 * MS)
        .attr("gen_ai.operation.name", "chat")
        .attr("gen_ai.request.model", "qwen3-long")
        .attr("gen_ai.response.id", "chatcmpl-ev1")
        .event("gen_ai.system.message", T0, Map.of("gen_ai.system", "openai", "content", "You are terse."))
        .event("gen_ai.user.message", T0, Map.of("gen_ai.system", "openai", "content", "List two primes."))
        .event("exception", T0 + 5, Map.of("exception.message", "ignored"))
        .event("gen_ai.choice", T0 + 800 * MS, Map.of("index", 0L, "finish_reason", "length",
            "message", Map.of("role", "assistant", "content", "2, 3")))
        .build();
    ObjectNode olderEvents = span(TRACE, "00000000000000b2", null, "chat qwen3-long", T0, T0 + 900 * MS)
        .attr("gen_ai.request.model", "qwen3-long")
        .attr("gen_ai.response.id", "chatcmpl-ev2")
        .event("gen_ai.content.prompt", T0, Map.of("gen_ai.prompt",
            json(List.of(Map.of("role", "user", "content", "List two primes.")))))
        .event("gen_ai.content.completion", T0 + 800 * MS, Map.of("gen_ai.completion",
            json(List.of(Map.of("role", "assistant", "content", "5, 7")))))
        .build();
    ObjectNode jsonBodyEvent = span(TRACE, "00000000000000b3", null, "chat qwen3-long", T0, T0 + 900 * MS)
        .attr("gen_ai.request.model", "qwen3-long")
        .attr("gen_ai.response.id", "chatcmpl-ev3")
        .event("gen_ai.user.message", T0, Map.of("gen_ai.event.content", json(Map.of("content", "Name a prime."))))
        .event("gen_ai.choice", T0, Map.of("gen_ai.event.content",
            json(Map.of("finish_reason", "stop", "message", Map.of("content", "11")))))
        .build();
    Path file = write("events.jsonl", List.of(line(Map.of(), List.of(conventionEvents, olderEvents, jsonBodyEvent))));

    List<RequestRecord> records = parse(file).records();

    assertThat(records).extracting(RequestRecord::promptText)
        .containsExactly("You are terse.\nList two primes.", "List two primes.", "Name a prime.");
    assertThat(records).extracting(RequestRecord::responseText).containsExactly("2, 3", "5, 7", "11");
    assertThat(records.getFirst().finishReason()).isEqualTo("length");
  }

  @Test
  void normalisesBase64IdsAndKeysSpansWithoutAResponseIdBySpanId() throws IOException {
    byte[] traceBytes = HexFormat.of().parseHex(TRACE);
    byte[] spanBytes = HexFormat.of().parseHex("eee19b7ec3c1b174");
    byte[] parentBytes = HexFormat.of().parseHex("eee19b7ec3c1b173");
    String trace64 = Base64.getEncoder().encodeToString(traceBytes);
    String span64 = Base64.getEncoder().encodeToString(spanBytes);
    ObjectNode failed = span(trace64, span64, null, "chat qwen3-long", T0, T0 + 30 * MS)
        .attr("gen_ai.operation.name", "chat")
        .attr("gen_ai.request.model", "qwen3-long")
        .attr("error.type", "timeout")
        .status(2)
        .build();
    // an SGLang stage span whose request is named by its parent, linked through base64 ids
    ObjectNode root = span(trace64, Base64.getEncoder().encodeToString(parentBytes), null, "decode Req 1f2e3d4c",
        T0, T0 + 80 * MS).attr("rid", "1f2e3d4c5b6a").attr("bootstrap_room", 77L).build();
    ObjectNode stage = span(trace64, Base64.getEncoder().encodeToString(HexFormat.of().parseHex("00000000000000c1")),
        Base64.getEncoder().encodeToString(parentBytes), "decode_forward", T0 + 10 * MS, T0 + 20 * MS).build();
    Path file = write("proto-json.jsonl", List.of(line(Map.of("host.name", "decode-3"), List.of(failed, root, stage))));

    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    RequestRecord r = sink.records().getFirst();
    assertThat(r.requestId()).isEqualTo("eee19b7ec3c1b174");
    assertThat(r.engineRid()).isNull();
    assertThat(r.statusCode()).as("a timeout names no HTTP status").isNull();
    assertThat(sink.events()).extracting(EngineEvent::rid).containsExactly("1f2e3d4c5b6a", "1f2e3d4c5b6a");
    assertThat(sink.events()).extracting(EngineEvent::bootstrapRoom).containsOnly(77L);
  }

  @Test
  void turnsSglangStageSpansIntoEngineEvents() throws IOException {
    // SGLang's own layout: room span > request root (rid) > thread span (host_id) > stage spans
    ObjectNode room = span(TRACE, "1000000000000001", null, "Bootstrap Room 0x1f", T0, T0 + 100 * MS)
        .attr("bootstrap_room", "0x1f").build();
    ObjectNode rootSpan = span(TRACE, "1000000000000002", "1000000000000001", "prefill Req 7f3a9b12", T0,
        T0 + 100 * MS).attr("rid", "7f3a9b12c4d5").build();
    ObjectNode thread = span(TRACE, "1000000000000003", "1000000000000002",
        "Scheduler [TP 0] (host:0a1b2c3d | pid:4242)", T0, T0 + 100 * MS)
        .attr("host_id", "0a1b2c3d4e5f").attr("pid", 4242L).attr("thread_label", "Scheduler").build();
    ObjectNode forward = span(TRACE, "1000000000000004", "1000000000000003", "prefill_forward",
        T0 + 10 * MS, T0 + 12 * MS + 500_000).build();
    ObjectNode transfer = span(TRACE, "1000000000000005", "1000000000000003", "prefill_transfer_kv_cache",
        T0 + 13 * MS, T0 + 19 * MS).build();
    // the decode side, here with the attributes on the stage span itself
    ObjectNode decode = span("6b8efff798038103d269b633813fc60d", "2000000000000001", null, "decode_transferred",
        T0 + 20 * MS, T0 + 21 * MS)
        .attr("rid", "7f3a9b12c4d5").attr("bootstrap_room", 31L).attr("input_len", 1L).build();
    Path file = write("sglang-trace.jsonl", List.of(
        line(Map.of("service.name", "sglang-prefill", "host.name", "prefill-0"),
            List.of(forward, transfer, thread, rootSpan, room)),
        line(Map.of("service.name", "sglang-decode"), List.of(decode))));

    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.records()).isEmpty();
    assertThat(sink.skipped).isEqualTo(2); // the thread and room spans
    List<EngineEvent> events = sink.events();
    assertThat(events).extracting(EngineEvent::detail).containsExactly(
        "span prefill_forward, 2.500 ms", "span prefill_transfer_kv_cache, 6.000 ms",
        "span prefill Req 7f3a9b12, 100.000 ms", "span decode_transferred, 1.000 ms");
    assertThat(events).allSatisfy(e -> {
      assertThat(e.kind()).isEqualTo(EngineEvent.Kind.TIME_STATS);
      assertThat(e.rid()).isEqualTo("7f3a9b12c4d5");
      assertThat(e.bootstrapRoom()).isEqualTo(31L);
      assertThat(e.sourceFile()).isEqualTo(file.toString());
    });
    assertThat(events).extracting(EngineEvent::role)
        .containsExactly(NodeRole.PREFILL, NodeRole.PREFILL, NodeRole.PREFILL, NodeRole.DECODE);
    assertThat(events).extracting(EngineEvent::node).containsExactly("prefill-0", "prefill-0", "prefill-0", "sglang-decode");
    assertThat(events).extracting(EngineEvent::time)
        .containsExactly(T0_MS + 10, T0_MS + 13, T0_MS, T0_MS + 20);
    assertThat(events).extracting(EngineEvent::sourceLine).containsExactly(1L, 1L, 1L, 2L);
    assertThat(events.get(1).transferMillis()).isEqualTo(6.0);
    assertThat(events.get(0).transferMillis()).isNull();
    assertThat(events.get(3).inputLen()).isEqualTo(1L);

    // --node names the node whatever the trace says
    assertThat(parse(file, IngestOptions.defaults().withNodeName("node-x")).events())
        .extracting(EngineEvent::node).containsOnly("node-x");
  }

  @Test
  void statusFromHttpThenSpanStatusWithoutInventingA500() throws IOException {
    List<ObjectNode> spans = List.of(
        chatSpan("00000000000000d1", "chatcmpl-1", T0).attr("http.response.status_code", 429L).status(2).build(),
        chatSpan("00000000000000d2", "chatcmpl-2", T0).status(2).build(),
        chatSpan("00000000000000d3", "chatcmpl-3", T0).status("STATUS_CODE_ERROR").build(),
        chatSpan("00000000000000d4", "chatcmpl-4", T0).build(), // unset, with a response: success
        span(TRACE, "00000000000000d5", null, "chat", T0, T0 + MS).attr("gen_ai.request.model", "m").build(),
        span(TRACE, "00000000000000d6", null, "chat", T0, T0 + MS).attr("gen_ai.request.model", "m").status(1).build());
    Path file = write("status.jsonl", List.of(line(Map.of(), spans)));

    assertThat(parse(file).records()).extracting(RequestRecord::statusCode)
        .containsExactly(429, null, null, 200, null, 200);
  }

  @Test
  void tenantIsTheFirstKeyPresentOnTheSpanOrItsResource() throws IOException {
    Map<String, Object> resource = Map.of("tenant.id", "org-from-resource", "enduser.id", "user-from-resource");
    List<ObjectNode> spans = List.of(
        chatSpan("00000000000000e1", "r1", T0).build(),
        chatSpan("00000000000000e2", "r2", T0).attr("tenant.id", "org-from-span").build(),
        chatSpan("00000000000000e3", "r3", T0).attr("metadata.user_api_key_org_id", "org-litellm").build());
    Path file = write("tenants.jsonl", List.of(line(resource, spans),
        line(Map.of("enduser.id", "user-only"), List.of(chatSpan("00000000000000e4", "r4", T0).build()))));

    assertThat(parse(file).records()).extracting(RequestRecord::tenant)
        .containsExactly("org-from-resource", "org-from-span", "org-litellm", "user-only");
    IngestOptions userFirst = new IngestOptions(List.of("enduser.id", "tenant.id"), null, null);
    assertThat(parse(file, userFirst).records()).extracting(RequestRecord::tenant)
        .containsExactly("user-from-resource", "user-from-resource", "user-from-resource", "user-only");
  }

  @Test
  void keepsGoodSpansAroundBadLinesAndBadSpans() throws IOException {
    String secret = "ssn 078-05-1120";
    ObjectNode good = chatSpan("00000000000000f1", "chatcmpl-good", T0).build();
    ObjectNode badId = chatSpan("00000000000000f2", "chatcmpl-badid", T0).build();
    badId.put("traceId", "not-an-id!");
    ObjectNode negative = chatSpan("00000000000000f3", "chatcmpl-neg", T0).attr("gen_ai.usage.output_tokens", -1L)
        .build();
    ObjectNode badTime = chatSpan("00000000000000f4", "chatcmpl-time", T0).build();
    badTime.put("startTimeUnixNano", "yesterday");
    List<String> lines = new ArrayList<>();
    lines.add(line(Map.of(), List.of(good)));
    lines.add("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"name\":\"" + secret + "\""); // cut
    lines.add("{\"resourceMetrics\":[]}");
    lines.add(line(Map.of(), List.of(badId, chatSpan("00000000000000f5", "chatcmpl-ok5", T0).build(), negative,
        badTime)));
    lines.add("   ");
    lines.add(line(Map.of(), List.of(chatSpan("00000000000000f6", "chatcmpl-ok6", T0).build())));
    Path file = write("mixed.jsonl", lines);

    CollectingSink sink = parse(file);

    assertThat(sink.records()).extracting(RequestRecord::requestId)
        .containsExactly("chatcmpl-good", "chatcmpl-ok5", "chatcmpl-ok6");
    assertThat(sink.records()).extracting(RequestRecord::sourceLine).containsExactly(1L, 4L, 6L);
    assertThat(sink.badLines()).containsExactly(2L, 3L, 4L, 4L, 4L);
    assertThat(sink.bad).extracting(b -> b.reason()).allSatisfy(reason -> assertThat(reason).doesNotContain(secret));
    assertThat(sink.bad.get(1).reason()).contains("no resourceSpans or resourceLogs");
    assertThat(sink.bad.get(2).reason()).startsWith("span 00000000000000f2: traceid:");
    assertThat(sink.bad.get(3).reason()).startsWith("span 00000000000000f3:").contains("completion_tokens");
    assertThat(sink.bad.get(4).reason()).startsWith("span 00000000000000f4:").contains("startTimeUnixNano");
  }

  @Test
  void skipsSpansThatAreNotModelCalls() throws IOException {
    List<ObjectNode> spans = List.of(
        span(TRACE, "0000000000000101", null, "POST /v1/chat/completions", T0, T0 + MS)
            .attr("http.request.method", "POST").attr("http.response.status_code", 200L).build(),
        span(TRACE, "0000000000000102", null, "invoke_agent planner", T0, T0 + MS)
            .attr("gen_ai.operation.name", "invoke_agent").attr("gen_ai.request.model", "qwen3-long")
            .attr("gen_ai.usage.input_tokens", 99L).build(),
        span(TRACE, "0000000000000103", null, "embeddings", T0, T0 + MS)
            .attr("gen_ai.operation.name", "embeddings").attr("gen_ai.request.model", "bge").build(),
        chatSpan("0000000000000104", "chatcmpl-only", T0).build());
    Path file = write("mixed-spans.jsonl", List.of(line(Map.of(), spans)));

    CollectingSink sink = parse(file);

    assertThat(sink.records()).extracting(RequestRecord::requestId).containsExactly("chatcmpl-only");
    assertThat(sink.skipped).isEqualTo(3);
  }

  @Test
  void readsProtoFieldNamesAndNumbersAsNumbers() throws IOException {
    String snake = "{\"resource_spans\":[{\"resource\":{\"attributes\":[{\"key\":\"tenant.id\",\"value\":"
        + "{\"string_value\":\"org-snake\"}}]},\"scope_spans\":[{\"spans\":[{\"trace_id\":\"" + TRACE + "\","
        + "\"span_id\":\"00000000000001aa\",\"name\":\"chat\",\"start_time_unix_nano\":" + T0 + ","
        + "\"end_time_unix_nano\":" + (T0 + MS) + ",\"attributes\":["
        + "{\"key\":\"gen_ai.response.id\",\"value\":{\"string_value\":\"chatcmpl-snake\"}},"
        + "{\"key\":\"gen_ai.usage.input_tokens\",\"value\":{\"int_value\":17}}],"
        + "\"status\":{\"code\":\"STATUS_CODE_OK\"}}]}]}]}";
    Path file = write("snake.jsonl", List.of(snake));

    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    RequestRecord r = sink.records().getFirst();
    assertThat(r.requestId()).isEqualTo("chatcmpl-snake");
    assertThat(r.tenant()).isEqualTo("org-snake");
    assertThat(r.promptTokens()).isEqualTo(17L);
    assertThat(r.startTime()).isEqualTo(T0_MS);
    assertThat(r.statusCode()).isEqualTo(200);
  }

  private static List<String> manyLines(int count) {
    return IntStream.range(0, count).mapToObj(i -> line(Map.of("tenant.id", "org-" + (i % 5)), List.of(
        chatSpan(String.format("%016x", i + 1), "chatcmpl-" + i, T0 + i * MS)
            .attr("gen_ai.input.messages", json(messages("user", "question " + i)))
            .build()))).toList();
  }

  @Test
  void truncatedGzipKeepsTheBatchesBeforeTheDamage() throws IOException {
    List<String> lines = manyLines(2000);
    Path file = TestFiles.writeLines(dir.resolve("traces.gz"), lines, Packing.GZIP);
    TestFiles.truncate(file, 0.5);
    int recoverable = TestFiles.completeLines(TestFiles.recoverableGzipPrefix(file));

    CollectingSink sink = parse(file);

    assertThat(recoverable).isBetween(100, 1999);
    assertThat(sink.records()).extracting(RequestRecord::requestId)
        .containsExactlyElementsOf(IntStream.range(0, recoverable).mapToObj(i -> "chatcmpl-" + i).toList());
    assertThat(sink.bad).singleElement().satisfies(bad -> assertThat(bad.line()).isEqualTo(recoverable + 1L));
  }

  @Test
  void readsZstdAndEmitsDuplicates() throws IOException {
    List<String> lines = new ArrayList<>(manyLines(300));
    lines.add(lines.get(7)); // the same batch exported twice
    Path file = TestFiles.writeLines(dir.resolve("traces.zst"), lines, Packing.ZSTD);

    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.records()).hasSize(301);
    assertThat(sink.records().getLast().requestId()).isEqualTo("chatcmpl-7");
    assertThat(sink.records().getLast().sourceLine()).isEqualTo(301);
    assertThat(sink.records().get(7).promptText()).isEqualTo("question 7");
  }

  @Test
  void readsAThreeMegabyteMessageAttribute() throws IOException {
    String prompt = "Patient record MRN-0042 notes: stable. ".repeat(80_000); // 3.1 MB
    ObjectNode big = chatSpan("0000000000000201", "chatcmpl-big", T0)
        .attr("gen_ai.input.messages", json(messages("user", prompt))).build();
    Path file = TestFiles.writeLines(dir.resolve("big.jsonl"), List.of(line(Map.of(), List.of(big)),
        manyLines(1).getFirst()), Packing.PLAIN);

    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.records()).hasSize(2);
    assertThat(sink.records().getFirst().promptText()).isEqualTo(prompt);
  }

  // ---- fixtures written from the instrumentations' own code (fixtures/otlp-*.json) ----

  private Path fixtureLine(String name) throws IOException {
    return write(name + ".jsonl", List.of(Fixtures.line(name)));
  }

  @Test
  void openLlmetryFlattenedMessagesToolCallsAndFinishReasonAreRead() throws IOException {
    CollectingSink sink = parse(fixtureLine("otlp-openllmetry.json"));

    assertThat(sink.bad).isEmpty();
    RequestRecord r = sink.records().getFirst();
    assertThat(r.requestId()).isEqualTo("chatcmpl-0e1d2c3b4a5948372615a4b3c2d1e0f9");
    assertThat(r.promptText()).isEqualTo("Which room did we book for the board?\n"
        + "{\"customer\": \"Ines Okafor\", \"card\": \"4111 1111 1111 1111\"}\n"
        + "room 4.12, Thursday 09:00");
    assertThat(r.responseText()).isEqualTo("Booking it now.\n"
        + "{\"room\": \"4.12\", \"account\": \"GB29 NWBK 6016 1331 9268 19\"}");
    assertThat(r.finishReason()).isEqualTo("tool_calls");
    assertThat(r.promptTokens()).isEqualTo(1200L);
    assertThat(r.completionTokens()).isEqualTo(34L);
    assertThat(r.tenant()).isEqualTo("org-globex");
    assertThat(r.statusCode()).as("unset status with a response").isEqualTo(200);
    assertThat(r.origin()).isEqualTo(io.kvscope.ingest.record.RecordOrigin.TRACE);
    assertThat(r.aliases()).containsExactly("trace_id:" + TRACE, "span_id:a1b2c3d4e5f60718");
  }

  @Test
  void anErrorSpanIsThe400ItsHttpChildOrItsErrorTextNames() throws IOException {
    com.fasterxml.jackson.databind.node.ObjectNode batch =
        (com.fasterxml.jackson.databind.node.ObjectNode) Fixtures.tree("otlp-error-span.json");
    Path withChild = write("with-child.jsonl", List.of(batch.toString()));
    com.fasterxml.jackson.databind.node.ArrayNode scopes =
        (com.fasterxml.jackson.databind.node.ArrayNode) batch.get("resourceSpans").get(0).get("scopeSpans");
    scopes.remove(1); // the GenAI span alone: its status message says 400
    Path alone = write("alone.jsonl", List.of(batch.toString()));
    ((com.fasterxml.jackson.databind.node.ObjectNode) scopes.get(0).get("spans").get(0).get("status")).remove("message");
    Path typeOnly = write("type-only.jsonl", List.of(batch.toString())); // only error.type: BadRequestError

    for (Path file : List.of(withChild, alone, typeOnly)) {
      CollectingSink sink = parse(file);
      assertThat(sink.bad).as(file.toString()).isEmpty();
      assertThat(sink.records()).as("the HTTP span below is no second request").hasSize(1);
      RequestRecord r = sink.records().getFirst();
      assertThat(r.statusCode()).as(file.toString()).isEqualTo(400);
      assertThat(r.requestId()).isEqualTo("0f1e2d3c4b5a6978");
      assertThat(r.tenant()).isEqualTo("org-acme");
    }
    RequestRecord quoted = parse(alone).records().getFirst();
    assertThat(quoted.quotedPromptTokens()).isEqualTo(1_172_782L);
    assertThat(quoted.quotedLimitTokens()).isEqualTo(1_048_576L);
  }

  @Test
  void theInferenceDetailsLogEventIsARequest() throws IOException {
    CollectingSink sink = parse(fixtureLine("otlp-details-event.json"));

    assertThat(sink.bad).isEmpty();
    assertThat(sink.records()).as("the plain log record beside it is not").hasSize(1);
    assertThat(sink.skipped).isEqualTo(1);
    RequestRecord r = sink.records().getFirst();
    assertThat(r.requestId()).isEqualTo("chatcmpl-6a5b4c3d2e1f40918273645546372819");
    assertThat(r.engineRid()).isEqualTo("6a5b4c3d2e1f40918273645546372819");
    assertThat(r.promptText()).isEqualTo("You are the travel desk assistant.\nChange my flight to the 14:05 to Lisbon.");
    assertThat(r.responseText()).isEqualTo("{\"flight\":\"TP1351\",\"passport\":\"X4821937\"}\nDone: you are on TP1351.");
    assertThat(r.tenant()).isEqualTo("org-initech");
    assertThat(r.startTime()).as("an event has no duration").isNull();
    assertThat(r.endTime()).isEqualTo(T0_MS + 1_900);
    assertThat(r.promptTokens()).isEqualTo(52L);
    assertThat(r.finishReason()).isEqualTo("stop");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.aliases()).containsExactly("trace_id:" + TRACE, "span_id:5566778899aabbcc");
  }
}

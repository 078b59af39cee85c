package io.kvscope.index;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.TextCopies;
import io.kvscope.index.doc.TypedDocs;
import io.kvscope.index.Checkpoint;
import io.kvscope.index.store.IndexStore;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records of one request read from a LiteLLM log and an OTLP trace, written the way LiteLLM
 * ({@code get_standard_logging_object_payload}) and the OpenTelemetry openai_v2 instrumentation
 * write them, become one request in a real index: the gateway's tenant, the full prompt, both
 * sources kept, whatever order and however many times the files are read.
 */
class RequestMergeIngestTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String RID = "9d1e4c2b7a6f45e3b1c0d9e8f7a6b5c4";
  private static final String TRACE = "5b8efff798038103d269b633813fc60c";
  private static final double START = 1_787_824_800.25; // epoch seconds, as LiteLLM writes them
  private static final long START_NS = 1_787_824_800_250_000_000L;

  @TempDir Path tmp;

  /** A conversation of 27,447 characters whose last user message is 1,898 of them. */
  private static final List<String> HISTORY = history();
  private static final String FULL_PROMPT = String.join("\n", HISTORY);

  private static List<String> history() {
    List<String> messages = new ArrayList<>();
    messages.add("You are the contracts desk of Northwind Freight. Answer from the documents quoted.");
    StringBuilder contract = new StringBuilder();
    for (int clause = 1; contract.length() < 23_300; clause++) {
      contract.append("Clause ").append(clause).append(": the carrier shall keep consignment ").append(1000 + clause)
          .append(" insured until delivery to the named port. ");
    }
    messages.add(contract.toString().strip());
    messages.add("Noted: I have read the master services agreement.");
    StringBuilder last = new StringBuilder("Quote me every clause that names a port, then ");
    while (last.length() < 1_898) {
      last.append("list the consignments it covers. ");
    }
    messages.add(last.substring(0, 1_898));
    int total = String.join("\n", messages).length();
    String padding = "x".repeat(27_447 - total);
    messages.set(2, messages.get(2) + padding);
    return messages;
  }

  private static String lastMessage() {
    return HISTORY.getLast();
  }

  /** LiteLLM's payload of the call: tenant from the API key's org, the whole history, a measured first chunk. */
  private static String liteLlmLine() {
    ObjectNode p = JSON.createObjectNode();
    p.put("id", "chatcmpl-" + RID);
    p.put("trace_id", "c0a8e1f2-3b4c-4d5e-8f90-a1b2c3d4e5f6");
    p.put("call_type", "acompletion");
    p.put("cache_hit", false);
    p.put("stream", true);
    p.put("status", "success");
    p.put("startTime", START);
    p.put("endTime", START + 6.5);
    p.put("completionStartTime", START + 0.92);
    p.put("model", "qwen2.5-14b-1m");
    p.put("model_group", "chat-1m");
    ObjectNode metadata = p.putObject("metadata");
    metadata.put("user_api_key_org_id", "org-acme");
    metadata.put("user_api_key_team_id", "team-acme");
    p.put("prompt_tokens", 4_902);
    p.put("completion_tokens", 180);
    p.put("end_user", "");
    ArrayNode messages = p.putArray("messages");
    for (int i = 0; i < HISTORY.size(); i++) {
      messages.addObject().put("role", i == 0 ? "system" : i % 2 == 1 ? "user" : "assistant").put("content", HISTORY.get(i));
    }
    ObjectNode response = p.putObject("response");
    response.put("id", "chatcmpl-" + RID);
    ObjectNode choice = response.putArray("choices").addObject();
    choice.put("finish_reason", "stop");
    choice.putObject("message").put("role", "assistant").put("content", "Clauses 1 to 40 name a port.");
    p.putNull("error_str");
    return p.toString();
  }

  /** The client's openai_v2 span of the same call: its own tenant attribute, only the last message. */
  private static String traceLine() {
    ObjectNode span = JSON.createObjectNode();
    span.put("traceId", TRACE);
    span.put("spanId", "0f1e2d3c4b5a6978");
    span.put("name", "chat chat-1m");
    span.put("kind", 3);
    span.put("startTimeUnixNano", Long.toString(START_NS - 40_000_000L));
    span.put("endTimeUnixNano", Long.toString(START_NS + 6_600_000_000L));
    ArrayNode a = span.putArray("attributes");
    attr(a, "gen_ai.operation.name", "chat");
    attr(a, "gen_ai.provider.name", "openai");
    attr(a, "gen_ai.request.model", "chat-1m");
    attr(a, "gen_ai.request.stream", true);
    attr(a, "tenant.id", "team-frontend");
    attr(a, "gen_ai.response.id", "chatcmpl-" + RID);
    attr(a, "gen_ai.response.time_to_first_chunk", 0.95);
    attr(a, "gen_ai.usage.input_tokens", 4_902L);
    attr(a, "gen_ai.usage.output_tokens", 180L);
    ArrayNode input = JSON.createArrayNode();
    input.addObject().put("role", "user").putArray("parts").addObject().put("type", "text").put("content", lastMessage());
    attr(a, "gen_ai.input.messages", input.toString());
    ObjectNode batch = JSON.createObjectNode();
    ObjectNode resourceSpans = batch.putArray("resourceSpans").addObject();
    resourceSpans.putObject("resource").putArray("attributes");
    resourceSpans.putArray("scopeSpans").addObject().putArray("spans").add(span);
    return batch.toString();
  }

  private static void attr(ArrayNode attributes, String key, Object value) {
    ObjectNode kv = attributes.addObject();
    kv.put("key", key);
    ObjectNode v = kv.putObject("value");
    switch (value) {
      case String s -> v.put("stringValue", s);
      case Long l -> v.put("intValue", Long.toString(l));
      case Double d -> v.put("doubleValue", d);
      case Boolean b -> v.put("boolValue", b);
      default -> throw new IllegalArgumentException(value.toString());
    }
  }

  private Path write(String relative, String line) throws IOException {
    Path file = tmp.resolve("in").resolve(relative);
    Files.createDirectories(file.getParent());
    return Files.writeString(file, line + "\n");
  }

  private static IngestSummary ingest(Path index, Path... inputs) throws IOException {
    try (IndexStore store = IndexStore.open(index)) {
      return new IndexIngest(store, Ingestors.discover(), IngestOptions.defaults(), IngestProgress.NONE,
          Clock.systemUTC(), 4).run(List.of(inputs));
    }
  }

  /** Every live document of {@code type}, id -> its stored fields. */
  private static Map<String, Document> documents(Path index, String type) throws IOException {
    Map<String, Document> docs = new TreeMap<>();
    try (FSDirectory dir = FSDirectory.open(index); DirectoryReader reader = DirectoryReader.open(dir)) {
      TypedDocs.forEach(reader, type, doc -> docs.put(doc.get(Schema.ID), doc));
    }
    return docs;
  }

  /** A document's stored fields as text, without the file paths of the run that wrote it. */
  private static String fields(Document doc) {
    StringBuilder out = new StringBuilder();
    for (IndexableField f : doc.getFields()) {
      out.append(f.name()).append('=').append(f.stringValue() != null ? f.stringValue() : f.numericValue()).append('\n');
    }
    return out.toString();
  }

  @Test
  void aCallInTheGatewayLogAndInATraceIsOneRequestWithTheGatewaysTenantAndTheFullPrompt() throws Exception {
    Path gateway = write("gateway/litellm-2026-08-27.jsonl", liteLlmLine());
    Path trace = write("traces/otel-spans.jsonl", traceLine());
    Path index = tmp.resolve("index");

    IngestSummary summary = ingest(index, tmp.resolve("in"));

    Map<String, Document> requests = documents(index, Schema.TYPE_REQUEST);
    assertThat(requests).hasSize(1);
    RequestRecord r = Documents.readRequest(requests.values().iterator().next());
    assertThat(r.tenant()).isEqualTo("org-acme");
    assertThat(r.promptChars()).isEqualTo(27_447L);
    assertThat(r.promptText()).isEqualTo(FULL_PROMPT);
    assertThat(r.requestId()).isEqualTo("chatcmpl-" + RID);
    assertThat(r.ttftMillis()).as("the gateway's own 920 ms, shorter than the client's 990 ms").isEqualTo(920L);
    assertThat(r.aliases()).contains("span_id:0f1e2d3c4b5a6978", "trace_id:" + TRACE,
        "litellm_trace_id:c0a8e1f2-3b4c-4d5e-8f90-a1b2c3d4e5f6");
    assertThat(r.provenance().sources()).containsExactly(
        "gateway " + gateway + ":1", "trace " + trace + ":1");
    assertThat(r.provenance().conflicts()).singleElement().asString().startsWith("tenant: kept 'org-acme'");
    assertThat(documents(index, Schema.TYPE_REQUEST_SOURCE)).hasSize(2);
    assertThat(summary.merge().recordsMerged()).isEqualTo(1);
    assertThat(summary.merge().requestsWithConflicts()).isEqualTo(1);
    assertThat(summary.merge().conflictSamples()).singleElement().asString().startsWith("chatcmpl-" + RID + ": tenant");
    try (IndexSearch search = IndexSearch.open(index)) {
      assertThat(search.search("merge_conflicts:[1 TO *]", 10).total()).isEqualTo(1);
      assertThat(search.search("alias:\"span_id:0f1e2d3c4b5a6978\"", 10).total()).as("found by the trace's id").isEqualTo(1);
      assertThat(search.search("tenant:team-frontend", 10).total()).as("a kept record is no request").isZero();
    }
  }

  @Test
  void theRequestIsTheSameWhicheverFileComesFirstAndReadingAgainChangesNothing() throws IOException {
    write("gateway/litellm-2026-08-27.jsonl", liteLlmLine());
    write("traces/otel-spans.jsonl", traceLine());
    Path together = tmp.resolve("together");
    Path traceFirst = tmp.resolve("trace-first");
    ingest(together, tmp.resolve("in"));
    ingest(traceFirst, tmp.resolve("in/traces"));
    IngestSummary gatewayLater = ingest(traceFirst, tmp.resolve("in/gateway"));

    assertThat(gatewayLater.merge().recordsMerged()).isEqualTo(1);
    Map<String, Document> expected = documents(together, Schema.TYPE_REQUEST);
    Map<String, Document> actual = documents(traceFirst, Schema.TYPE_REQUEST);
    assertThat(actual.keySet()).isEqualTo(expected.keySet());
    expected.forEach((id, doc) -> assertThat(fields(actual.get(id))).isEqualTo(fields(doc)));

    // The files read again (a lost checkpoint): the same records replace themselves, nothing merges anew.
    Path again = tmp.resolve("again");
    ingest(again, tmp.resolve("in"));
    try (IndexStore store = IndexStore.open(again)) {
      store.delete(Checkpoint.idFor(tmp.resolve("in/gateway/litellm-2026-08-27.jsonl").toAbsolutePath().normalize().toString()));
      store.commit();
    }
    IngestSummary reread = ingest(again, tmp.resolve("in"));
    assertThat(reread.filesIngested()).isEqualTo(1);
    assertThat(reread.merge().recordsMerged()).isZero();
    assertThat(documents(again, Schema.TYPE_REQUEST).values()).extracting(RequestMergeIngestTest::fields)
        .containsExactlyElementsOf(expected.values().stream().map(RequestMergeIngestTest::fields).toList());
  }

  /** The payload of the call with {@code reply} as the reply. */
  private static String liteLlmLine(String reply) {
    return liteLlmLine().replace("Clauses 1 to 40 name a port.", reply);
  }

  /**
   * Two gateway lines of one call with different replies: the longer is kept, the other is a
   * text_copy with where it was read. A third line whose reply goes on from the copied one becomes
   * the kept text: the copy it now holds is retired, and the reply it replaced is the copy.
   */
  @Test
  void aReplyTheMergedRequestDoesNotHoldIsKeptAsACopyAndRetiredWhenItIsHeld() throws IOException {
    String shortReply = "Clauses 1 to 40 name a port.";
    String longReply = "Every clause of the agreement names a port of delivery, as quoted below in full.";
    Path first = write("gateway/litellm-2026-08-27.jsonl", liteLlmLine(shortReply));
    Path second = write("gateway/litellm-retry.jsonl", liteLlmLine(longReply));
    Path index = tmp.resolve("index");
    ingest(index, tmp.resolve("in"));

    Map<String, Document> copies = documents(index, Schema.TYPE_TEXT_COPY);
    assertThat(copies.values()).singleElement().satisfies(copy -> {
      assertThat(copy.get(Schema.COPY_TEXT)).isEqualTo(shortReply);
      assertThat(copy.get(Schema.COPY_OF)).isEqualTo(Schema.RESPONSE_TEXT);
      assertThat(copy.get(Schema.COPY_SOURCE)).isEqualTo("gateway " + first + ":1");
      assertThat(copy.get(Schema.COPY_KEPT_FROM)).isEqualTo("gateway " + second + ":1");
      assertThat(copy.get(Schema.COPY_OUTRANKED)).isEqualTo("false");
    });
    assertThat(Documents.readRequest(documents(index, Schema.TYPE_REQUEST).values().iterator().next()).responseText())
        .isEqualTo(longReply);

    String goesOn = shortReply + " The carrier's insurance clauses are 3, 9 and 27, each naming the port.";
    Path third = Files.writeString(Files.createDirectories(tmp.resolve("later")).resolve("litellm-late.jsonl"),
        liteLlmLine(goesOn) + "\n");
    ingest(index, tmp.resolve("later"));

    assertThat(documents(index, Schema.TYPE_TEXT_COPY).values()).singleElement().satisfies(copy -> {
      assertThat(copy.get(Schema.COPY_TEXT)).isEqualTo(longReply);
      assertThat(copy.get(Schema.COPY_KEPT_FROM)).isEqualTo("gateway " + third.toAbsolutePath() + ":1");
    });
    try (FSDirectory dir = FSDirectory.open(index); DirectoryReader reader = DirectoryReader.open(dir)) {
      assertThat(TextCopies.requestsWithCopies(reader)).isEqualTo(1);
    }
  }

  @Test
  void aFailedCallsSpanAndItsDetailsEventAreOneRequestKeyedByTheSpan() throws IOException {
    String spanId = "0f1e2d3c4b5a6978";
    String error = "Error code: 400 - {'object': 'error', 'message': \"The input (1172782 tokens) is longer than "
        + "the model's context length (1048576 tokens).\", 'type': 'BadRequestError', 'param': None, 'code': 400}";
    ObjectNode batch = JSON.createObjectNode();
    ObjectNode rs = batch.putArray("resourceSpans").addObject();
    rs.putObject("resource").putArray("attributes");
    ObjectNode span = rs.putArray("scopeSpans").addObject().putArray("spans").addObject();
    span.put("traceId", TRACE).put("spanId", spanId).put("name", "chat chat-1m").put("kind", 3)
        .put("startTimeUnixNano", Long.toString(START_NS)).put("endTimeUnixNano", Long.toString(START_NS + 3_000_000_000L));
    ArrayNode a = span.putArray("attributes");
    attr(a, "gen_ai.operation.name", "chat");
    attr(a, "gen_ai.request.model", "chat-1m");
    attr(a, "tenant.id", "org-acme");
    attr(a, "error.type", "BadRequestError");
    span.putObject("status").put("message", error).put("code", 2);
    // opentelemetry-util-genai: the same call's attributes as a log event, content included
    ObjectNode logs = JSON.createObjectNode();
    ObjectNode rl = logs.putArray("resourceLogs").addObject();
    rl.putObject("resource").putArray("attributes");
    ObjectNode record = rl.putArray("scopeLogs").addObject().putArray("logRecords").addObject();
    record.put("timeUnixNano", Long.toString(START_NS + 3_000_000_000L))
        .put("eventName", "gen_ai.client.inference.operation.details").put("traceId", TRACE).put("spanId", spanId);
    ArrayNode e = record.putArray("attributes");
    attr(e, "gen_ai.operation.name", "chat");
    attr(e, "gen_ai.request.model", "chat-1m");
    attr(e, "error.type", "BadRequestError");
    attr(e, "gen_ai.input.messages", "[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"a very long contract\"}]}]");
    write("traces/spans.jsonl", batch.toString());
    write("traces/logs.jsonl", logs.toString());
    Path index = tmp.resolve("index");

    IngestSummary summary = ingest(index, tmp.resolve("in"));

    Map<String, Document> requests = documents(index, Schema.TYPE_REQUEST);
    assertThat(requests).as("the event is no second request").hasSize(1);
    RequestRecord r = Documents.readRequest(requests.values().iterator().next());
    assertThat(r.requestId()).isEqualTo(spanId);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.tenant()).isEqualTo("org-acme");
    assertThat(r.promptText()).isEqualTo("a very long contract");
    assertThat(r.quotedLimitTokens()).isEqualTo(1_048_576L);
    assertThat(r.startTime()).as("the span's clock; the event has no start").isEqualTo(START_NS / 1_000_000);
    assertThat(summary.merge().recordsMerged()).isEqualTo(1);
  }
}

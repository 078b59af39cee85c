package io.kvscope.ingest.litellm;

import static io.kvscope.ingest.litellm.Payloads.line;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.JsonNode;
import io.kvscope.ingest.CollectingSink;
import io.kvscope.ingest.Fixtures;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.TestFiles;
import io.kvscope.ingest.TestFiles.Packing;
import io.kvscope.ingest.record.RecordOrigin;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiteLlmIngestorTest {

  /** 2026-08-27T10:00:00Z as LiteLLM writes it: epoch seconds with a fraction. */
  private static final double START = 1_787_824_800.123456;
  private static final long START_MS = 1_787_824_800_123L;

  @TempDir Path dir;

  private final LiteLlmIngestor ingestor = new LiteLlmIngestor();

  private CollectingSink parse(Path file, IngestOptions options) throws IOException {
    CollectingSink sink = new CollectingSink();
    ingestor.parse(new InputFile(file), options, sink);
    return sink;
  }

  private CollectingSink parse(Path file) throws IOException {
    return parse(file, IngestOptions.defaults());
  }

  @Test
  void mapsAPayloadToTheCanonicalRecord() throws IOException {
    Path file = TestFiles.writeLines(dir.resolve("gateway.jsonl"), List.of(line(Payloads.success(
        "c0ffee-1", "chatcmpl-7f3a9b", "org-acme", START, "Summarise our Q3 numbers", "Revenue grew 12%."))),
        Packing.PLAIN);

    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    RequestRecord r = sink.records().getFirst();
    assertThat(r.requestId()).isEqualTo("c0ffee-1");
    assertThat(r.engineRid()).isEqualTo("7f3a9b");
    assertThat(r.tenant()).isEqualTo("org-acme");
    assertThat(r.model()).isEqualTo("qwen3-235b-a22b");
    assertThat(r.deployment()).isEqualTo("qwen3-long");
    assertThat(r.startTime()).isEqualTo(START_MS);
    assertThat(r.firstTokenTime()).isEqualTo(START_MS + 750);
    assertThat(r.endTime()).isEqualTo(START_MS + 2500);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.finishReason()).isEqualTo("stop");
    assertThat(r.promptTokens()).isEqualTo(1200L);
    assertThat(r.completionTokens()).isEqualTo(34L);
    assertThat(r.cachedTokens()).isEqualTo(1024L);
    assertThat(r.promptText()).isEqualTo("You are a helpful assistant.\nSummarise our Q3 numbers");
    assertThat(r.promptChars()).isEqualTo((long) r.promptText().length());
    assertThat(r.responseText()).isEqualTo("Revenue grew 12%.");
    assertThat(r.sourceFile()).isEqualTo(file.toString());
    assertThat(r.sourceLine()).isEqualTo(1);
  }

  @Test
  void joinsContentPartsAndFallsBackToResponseUsage() throws IOException {
    ObjectNode p = Payloads.success("parts-1", "resp-9", "org-a", START, "unused", "unused");
    p.remove("prompt_tokens");
    p.remove("completion_tokens");
    p.remove("model_group");
    var messages = p.putArray("messages");
    var user = messages.addObject().put("role", "user");
    var parts = user.putArray("content");
    parts.addObject().put("type", "text").put("text", "What is in this image?");
    parts.addObject().put("type", "image_url").putObject("image_url").put("url", "data:image/png;base64,AAAA");
    parts.addObject().put("type", "text").put("text", "Answer briefly.");
    messages.addObject().put("role", "assistant").putNull("content").putArray("tool_calls");
    var choices = p.withObject("/response").putArray("choices");
    choices.addObject().put("finish_reason", "length").putObject("message").put("content", "A cat");
    choices.addObject().put("finish_reason", "stop").putObject("message").put("content", "A small cat");
    Path file = TestFiles.writeLines(dir.resolve("parts.jsonl"), List.of(line(p)), Packing.PLAIN);

    RequestRecord r = parse(file).records().getFirst();

    assertThat(r.promptText()).isEqualTo("What is in this image?\nAnswer briefly.");
    assertThat(r.responseText()).isEqualTo("A cat\nA small cat");
    assertThat(r.finishReason()).isEqualTo("length"); // the first choice's
    assertThat(r.engineRid()).isEqualTo("resp-9"); // no chatcmpl- prefix to strip
    assertThat(r.promptTokens()).isEqualTo(1200L);
    assertThat(r.completionTokens()).isEqualTo(34L);
    assertThat(r.deployment()).isEqualTo("qwen3-235b-a22b"); // no model_group: the model
  }

  @Test
  void keepsGoodLinesAndReportsBadOnesWithTheirNumbers() throws IOException {
    String secret = "sk-live-SECRET-4242";
    List<String> lines = new ArrayList<>();
    lines.add(line(Payloads.success("ok-1", "chatcmpl-a", "org-a", START, "hello", "hi")));
    lines.add("{\"id\": \"broken-2\", \"messages\": [{\"content\": \"" + secret + "\"}"); // cut short
    lines.add(line(Payloads.success("ok-3", "chatcmpl-b", "org-b", START + 1, "hello", "hi")));
    lines.add("not json at all " + secret);
    lines.add(""); // blank: skipped, not bad
    lines.add("[\"an\", \"array\"]");
    ObjectNode noId = Payloads.success("x", "chatcmpl-c", "org-c", START, secret, "hi");
    noId.remove("id");
    lines.add(line(noId));
    ObjectNode negative = Payloads.success("neg-8", "chatcmpl-d", "org-d", START, "p", "r");
    negative.put("prompt_tokens", -5);
    lines.add(line(negative));
    ObjectNode wrongType = Payloads.success("typ-9", "chatcmpl-e", "org-e", START, "p", "r");
    wrongType.put("completion_tokens", "many");
    lines.add(line(wrongType));
    lines.add(line(Payloads.success("ok-10", "chatcmpl-f", "org-f", START + 2, "hello", "hi")) + " trailing");
    lines.add(line(Payloads.success("ok-11", "chatcmpl-g", "org-g", START + 3, "hello", "hi")));
    Path file = TestFiles.writeLines(dir.resolve("mixed.jsonl"), lines, Packing.PLAIN);

    CollectingSink sink = parse(file);

    assertThat(sink.records()).extracting(RequestRecord::requestId).containsExactly("ok-1", "ok-3", "ok-11");
    assertThat(sink.records()).extracting(RequestRecord::sourceLine).containsExactly(1L, 3L, 11L);
    assertThat(sink.badLines()).containsExactly(2L, 4L, 6L, 7L, 8L, 9L, 10L);
    assertThat(sink.skipped).isEqualTo(1);
    assertThat(sink.bad).allSatisfy(bad -> {
      assertThat(bad.file()).isEqualTo(file.toString());
      assertThat(bad.reason()).doesNotContain(secret).doesNotContain("hello");
    });
    assertThat(sink.bad.get(0).reason()).contains("ends early");
    assertThat(sink.bad.get(1).reason()).contains("not valid JSON");
    assertThat(sink.bad.get(2).reason()).isEqualTo("not a JSON object");
    assertThat(sink.bad.get(3).reason()).isEqualTo("payload has no id");
    assertThat(sink.bad.get(4).reason()).contains("prompt_tokens");
    assertThat(sink.bad.get(5).reason()).isEqualTo("completion_tokens is not a number");
    assertThat(sink.bad.get(6).reason()).contains("after the JSON object");
    // the raw line goes to quarantine, and only there
    assertThat(sink.badRaw.get(1)).isEqualTo(lines.get(3));
  }

  @Test
  void truncatedGzipKeepsTheRecordsBeforeTheDamage() throws IOException {
    List<String> lines = IntStream.range(0, 3000).mapToObj(i -> line(Payloads.success(
        "req-" + i, "chatcmpl-" + i, "org-" + (i % 7), START + i, "prompt number " + i, "answer " + i))).toList();
    Path file = TestFiles.writeLines(dir.resolve("gateway.log.gz"), lines, Packing.GZIP);
    TestFiles.truncate(file, 0.5);
    int recoverable = TestFiles.completeLines(TestFiles.recoverableGzipPrefix(file));

    CollectingSink sink = parse(file);

    assertThat(recoverable).isBetween(100, 2999);
    assertThat(sink.records()).extracting(RequestRecord::requestId)
        .containsExactlyElementsOf(IntStream.range(0, recoverable).mapToObj(i -> "req-" + i).toList());
    assertThat(sink.bad).singleElement().satisfies(bad -> {
      assertThat(bad.line()).isEqualTo(recoverable + 1L);
      assertThat(bad.reason()).contains("ends early");
    });
  }

  @Test
  void readsZstdFiles() throws IOException {
    List<String> lines = IntStream.range(0, 500).mapToObj(i -> line(Payloads.success(
        "z-" + i, "chatcmpl-z" + i, "org-z", START + i, "prompt " + i, "answer " + i))).toList();
    Path file = TestFiles.writeLines(dir.resolve("gateway.jsonl.zst"), lines, Packing.ZSTD);

    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.records()).hasSize(500);
    assertThat(sink.records().get(499).engineRid()).isEqualTo("z499");
    assertThat(sink.records().get(499).promptText()).endsWith("prompt 499");
  }

  @Test
  void ignoresUnknownFieldsWhateverTheirShape() throws IOException {
    ObjectNode p = Payloads.success("unk-1", "chatcmpl-u", "org-u", START, "q", "a");
    p.putObject("a_future_field").putArray("deep").addObject().putArray("deeper").add(1).add("x").addNull();
    p.put("another_number", 1e300);
    p.withObject("/response").put("system_fingerprint", "fp_1").putObject("extra").put("id", "not-this-one");
    p.withObject("/metadata").putObject("nested").put("user_api_key_org_id", "not-this-either");
    Path file = TestFiles.writeLines(dir.resolve("unknown.jsonl"), List.of(line(p)), Packing.PLAIN);

    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    RequestRecord r = sink.records().getFirst();
    assertThat(r.engineRid()).isEqualTo("u");
    assertThat(r.tenant()).isEqualTo("org-u");
  }

  @Test
  void emitsDuplicatesAsTheyCome() throws IOException {
    String payload = line(Payloads.success("dup-1", "chatcmpl-d", "org-d", START, "same", "same"));
    Path file = TestFiles.writeLines(dir.resolve("dups.jsonl"), List.of(payload, payload), Packing.PLAIN);

    CollectingSink sink = parse(file);

    // de-duplication is the index's job; here both copies arrive, each citing its own line
    assertThat(sink.records()).extracting(RequestRecord::requestId).containsExactly("dup-1", "dup-1");
    assertThat(sink.records()).extracting(RequestRecord::sourceLine).containsExactly(1L, 2L);
  }

  @Test
  void readsAThreeMegabytePromptLine() throws IOException {
    String prompt = "The quarterly ledger for account 4111-0000-2222 shows ".repeat(60_000); // 3.3 MB
    List<String> lines = List.of(
        line(Payloads.success("small-1", "chatcmpl-s1", "org-a", START, "short", "ok")),
        line(Payloads.success("huge-2", "chatcmpl-h2", "org-b", START + 1, prompt, "Done.")),
        line(Payloads.success("small-3", "chatcmpl-s3", "org-c", START + 2, "short", "ok")));
    Path file = TestFiles.writeLines(dir.resolve("huge.jsonl.gz"), lines, Packing.GZIP);

    long started = System.nanoTime();
    CollectingSink sink = parse(file);
    long millis = (System.nanoTime() - started) / 1_000_000;

    assertThat(sink.bad).isEmpty();
    assertThat(sink.records()).extracting(RequestRecord::requestId).containsExactly("small-1", "huge-2", "small-3");
    RequestRecord huge = sink.records().get(1);
    assertThat(huge.promptText()).hasSize("You are a helpful assistant.\n".length() + prompt.length()).endsWith(prompt);
    assertThat(huge.promptChars()).isEqualTo((long) huge.promptText().length());
    assertThat(millis).as("3 MB line parse time").isLessThan(5_000);
  }

  @Test
  void tenantIsTheFirstConfiguredKeyThatIsPresent() throws IOException {
    ObjectNode withOrg = Payloads.success("t-1", "r1", "org-1", START, "p", "a");
    ObjectNode teamOnly = Payloads.success("t-2", "r2", "org-2", START, "p", "a");
    teamOnly.withObject("/metadata").putNull("user_api_key_org_id");
    ObjectNode endUserOnly = Payloads.success("t-3", "r3", "org-3", START, "p", "a");
    endUserOnly.withObject("/metadata").remove(List.of("user_api_key_org_id", "user_api_key_team_id"));
    endUserOnly.put("end_user", "customer-42");
    ObjectNode blankOrg = Payloads.success("t-4", "r4", "", START, "p", "a");
    ObjectNode none = Payloads.success("t-5", "r5", "org-5", START, "p", "a");
    none.remove("metadata");
    Path file = TestFiles.writeLines(dir.resolve("tenants.jsonl"),
        List.of(line(withOrg), line(teamOnly), line(endUserOnly), line(blankOrg), line(none)), Packing.PLAIN);

    assertThat(parse(file).records()).extracting(RequestRecord::tenant)
        .containsExactly("org-1", "team-org-2", "customer-42", "team-", null);

    // a different order puts the end user first; numbers are tenants too
    ObjectNode numericUser = Payloads.success("t-6", "r6", "org-6", START, "p", "a");
    numericUser.put("end_user", "");
    numericUser.withObject("/metadata").put("user_api_key_user_id", 31337);
    Path second = TestFiles.writeLines(dir.resolve("tenants2.jsonl"),
        List.of(line(endUserOnly), line(withOrg), line(numericUser)), Packing.PLAIN);
    IngestOptions endUserFirst = new IngestOptions(
        List.of("end_user", "metadata.user_api_key_user_id", "metadata.user_api_key_org_id"), null, null);
    assertThat(parse(second, endUserFirst).records()).extracting(RequestRecord::tenant)
        .containsExactly("customer-42", "user-7", "31337");
  }

  @Test
  void statusComesFromErrorInformationOnFailure() throws IOException {
    Path file = TestFiles.writeLines(dir.resolve("failures.jsonl"), List.of(
        line(Payloads.failure("f-1", "org-a", START, "p", "429")),
        line(Payloads.failure("f-2", "org-a", START, "p", 400)),
        line(Payloads.failure("f-3", "org-a", START, "p", "invalid_request_error")),
        line(Payloads.failure("f-4", "org-a", START, "p", "")),
        line(Payloads.success("s-5", "chatcmpl-5", "org-a", START, "p", "a"))), Packing.PLAIN);

    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.records()).extracting(RequestRecord::statusCode).containsExactly(429, 400, 500, 500, 200);
    RequestRecord failed = sink.records().getFirst();
    assertThat(failed.engineRid()).isNull(); // the response was an error string, not a completion
    assertThat(failed.responseText()).isNull();
    assertThat(failed.succeeded()).isFalse();
  }

  @Test
  void resumesAfterTheCommittedLines() throws IOException {
    List<String> lines = IntStream.range(0, 10).mapToObj(i -> line(Payloads.success(
        "r-" + i, "chatcmpl-" + i, "org", START + i, "p" + i, "a" + i))).toList();
    Path file = TestFiles.writeLines(dir.resolve("resume.jsonl"), lines, Packing.PLAIN);

    CollectingSink sink = new CollectingSink();
    ingestor.parse(new InputFile(file, "resume.jsonl", 7), IngestOptions.defaults(), sink);

    assertThat(ingestor.resumableByLine()).isTrue();
    assertThat(sink.records()).extracting(RequestRecord::requestId).containsExactly("r-7", "r-8", "r-9");
    assertThat(sink.records()).extracting(RequestRecord::sourceLine).containsExactly(8L, 9L, 10L);
    assertThat(sink.records()).extracting(RequestRecord::sourceFile).containsOnly("resume.jsonl");
  }

  // ---- fixtures written from LiteLLM's own code (fixtures/litellm-*.json) ----

  private Path fixtureLine(String name, String fileName) throws IOException {
    return TestFiles.writeLines(dir.resolve(fileName), List.of(Fixtures.line(name)), Packing.PLAIN);
  }

  @Test
  void aFailureIsItsCallIdWithoutUsageOrFirstTokenAndQuotesTheEngineRejection() throws IOException {
    CollectingSink sink = parse(fixtureLine("litellm-failure.json", "failure.jsonl"));

    assertThat(sink.bad).isEmpty();
    RequestRecord r = sink.records().getFirst();
    assertThat(r.requestId()).isEqualTo("7d3f2a9c-51e4-4b8e-9f0a-2c6d1e8b4a57"); // litellm_call_id
    assertThat(r.engineRid()).as("SGLang's error body names no rid").isNull();
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.startTime()).isEqualTo(1_787_824_800_250L);
    assertThat(r.endTime()).isEqualTo(1_787_824_803_618L);
    assertThat(r.firstTokenTime()).as("completionStartTime is endTime: nothing came").isNull();
    assertThat(r.ttftMillis()).isNull();
    assertThat(r.promptTokens()).as("usage of a failure is LiteLLM's zero, not a count").isNull();
    assertThat(r.completionTokens()).isNull();
    assertThat(r.quotedPromptTokens()).isEqualTo(1_172_782L);
    assertThat(r.quotedLimitTokens()).isEqualTo(1_048_576L);
    assertThat(r.responseText()).isNull();
    assertThat(r.promptText()).startsWith("You answer questions").endsWith("services agreement.");
    assertThat(r.tenant()).isEqualTo("org-acme");
    assertThat(r.origin()).isEqualTo(RecordOrigin.GATEWAY);
    assertThat(r.aliases()).containsExactly("litellm_trace_id:c0a8e1f2-3b4c-4d5e-8f90-a1b2c3d4e5f6");
  }

  @Test
  void aFailureWhoseErrorNamesTheEngineRidJoinsThroughIt() throws IOException {
    ObjectNode payload = (ObjectNode) Fixtures.tree("litellm-failure.json");
    // Python's repr of a message holding single quotes uses double quotes.
    String error = "litellm.BadRequestError: OpenAIException - Error code: 400 - {'object': 'error', 'message': "
        + "\"Input length (790478 tokens) exceeds the maximum allowed length (681274 tokens). Use a shorter input or "
        + "enable --allow-auto-truncate., self.rid='63b1b22dad53465b92560ebdda56d075'\", 'type': 'BadRequestError', "
        + "'param': None, 'code': 400}";
    payload.put("error_str", error);
    ((ObjectNode) payload.get("error_information")).put("error_message", error);
    Path file = TestFiles.writeLines(dir.resolve("rid.jsonl"), List.of(payload.toString()), Packing.PLAIN);

    RequestRecord r = parse(file).records().getFirst();

    assertThat(r.engineRid()).isEqualTo("63b1b22dad53465b92560ebdda56d075");
    assertThat(r.quotedPromptTokens()).isEqualTo(790_478L);
    assertThat(r.quotedLimitTokens()).isEqualTo(681_274L);
  }

  @Test
  void toolCallArgumentsInTheHistoryAndInTheReplyAreText() throws IOException {
    CollectingSink sink = parse(fixtureLine("litellm-tool-calls.json", "tools.jsonl"));

    RequestRecord r = sink.records().getFirst();
    assertThat(r.promptText()).isEqualTo("Book the usual room for the board meeting.\n"
        + "{\"customer\": \"Ines Okafor\", \"card\": \"4111 1111 1111 1111\"}\n"
        + "room 4.12, Thursday 09:00");
    assertThat(r.responseText()).isEqualTo("Booking it now.\n"
        + "{\"room\": \"4.12\", \"account\": \"GB29 NWBK 6016 1331 9268 19\"}");
    assertThat(r.finishReason()).isEqualTo("tool_calls");
    assertThat(r.engineRid()).isEqualTo("3f9e8d7c6b5a49382716a5b4c3d2e1f0");
    assertThat(r.ttftMillis()).as("a stream's first chunk is measured").isEqualTo(750L);
    assertThat(r.cachedTokens()).isEqualTo(1024L);
  }

  @Test
  void redactedContentIsNoContent() throws IOException {
    ObjectNode payload = (ObjectNode) Fixtures.tree("litellm-tool-calls.json");
    payload.putArray("messages").addObject().put("role", "user").put("content", "redacted-by-litellm");
    JsonNode message = payload.get("response").get("choices").get(0).get("message");
    ((ObjectNode) message).put("content", "redacted-by-litellm");
    ((ObjectNode) message).putNull("tool_calls");
    Path file = TestFiles.writeLines(dir.resolve("redacted.jsonl"), List.of(payload.toString()), Packing.PLAIN);

    RequestRecord r = parse(file).records().getFirst();

    assertThat(r.promptText()).isNull();
    assertThat(r.promptChars()).isNull();
    assertThat(r.responseText()).isNull();
  }
}

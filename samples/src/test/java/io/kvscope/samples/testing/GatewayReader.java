package io.kvscope.samples.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Reads every LiteLLM line and OTLP span of a generated incident with plain Jackson. */
public final class GatewayReader {

  private static final ObjectMapper JSON = new ObjectMapper();

  private GatewayReader() {}

  /** All records in file order (duplicates included); texts kept for ids in {@code keepText}. */
  public static List<GatewayRecord> read(Path dir, Set<String> keepText) throws IOException {
    return read(dir, r -> keepText.contains(r.id()));
  }

  /**
   * All records in file order (duplicates included); texts kept for the records {@code keepText}
   * accepts, judged on the record without its texts. One pass: a test that needs several sets of
   * texts asks for their union instead of reading multi-megabyte lines again.
   */
  public static List<GatewayRecord> read(Path dir, Predicate<GatewayRecord> keepText) throws IOException {
    List<GatewayRecord> out = new ArrayList<>();
    for (Path f : list(dir.resolve("gateway"))) {
      try (BufferedReader r = Files2.reader(f)) {
        String line;
        while ((line = r.readLine()) != null) {
          out.add(litellm(JSON.readTree(line), dir.relativize(f).toString(), keepText));
        }
      }
    }
    for (Path f : list(dir.resolve("traces"))) {
      try (BufferedReader r = Files2.reader(f)) {
        String line;
        while ((line = r.readLine()) != null) {
          out.add(otlp(JSON.readTree(line), dir.relativize(f).toString(), keepText));
        }
      }
    }
    return out;
  }

  private static List<Path> list(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }

  private static long ms(JsonNode n) {
    return Math.round(n.asDouble() * 1000);
  }

  private static GatewayRecord litellm(JsonNode d, String file, Predicate<GatewayRecord> keep) {
    String id = d.get("id").asText();
    JsonNode meta = d.path("metadata");
    String tenant = meta.path("user_api_key_org_id").isNull() || meta.path("user_api_key_org_id").isMissingNode()
        ? d.path("end_user").asText() : meta.path("user_api_key_org_id").asText();
    boolean ok = "success".equals(d.path("status").asText());
    List<String> messages = new ArrayList<>();
    long tokens = 0;
    long chars = 0;
    for (JsonNode m : d.path("messages")) {
      String c = m.path("content").asText();
      tokens += TokenCount.count(c);
      chars += c.length();
      messages.add(c);
    }
    GatewayRecord bare = new GatewayRecord(id, "litellm", file, tenant, ok,
        ok ? 200 : d.path("error_information").path("error_code").asInt(),
        ms(d.path("startTime")), ms(d.path("endTime")), ms(d.path("completionStartTime")),
        d.path("prompt_tokens").asLong(), tokens, chars,
        d.path("response").path("usage").path("prompt_tokens_details").path("cached_tokens").asLong(),
        d.path("error_str").isNull() ? null : d.path("error_str").asText(), List.of(), null);
    if (!keep.test(bare)) {
      return bare;
    }
    String response = ok ? d.path("response").path("choices").get(0).path("message").path("content").asText() : null;
    return withTexts(bare, messages, response);
  }

  private static GatewayRecord withTexts(GatewayRecord r, List<String> messages, String response) {
    return new GatewayRecord(r.id(), r.source(), r.file(), r.tenant(), r.success(), r.status(), r.startMs(), r.endMs(),
        r.firstTokenMs(), r.promptTokensReported(), r.promptTokensCounted(), r.promptChars(), r.cachedTokens(),
        r.errorMessage(), messages, response);
  }

  private static GatewayRecord otlp(JsonNode d, String file, Predicate<GatewayRecord> keep) throws IOException {
    JsonNode span = d.path("resourceSpans").get(0).path("scopeSpans").get(0).path("spans").get(0);
    String responseId = null;
    String tenant = null;
    String input = null;
    String output = null;
    java.util.TreeMap<Integer, String> indexedPrompt = new java.util.TreeMap<>();
    String indexedCompletion = null;
    long reported = 0;
    for (JsonNode a : span.path("attributes")) {
      String key = a.path("key").asText();
      JsonNode v = a.path("value");
      switch (key) {
        case "gen_ai.response.id" -> responseId = v.path("stringValue").asText();
        case "tenant.id" -> tenant = v.path("stringValue").asText();
        case "gen_ai.input.messages" -> input = v.path("stringValue").asText();
        case "gen_ai.output.messages" -> output = v.path("stringValue").asText();
        case "gen_ai.completion.0.content" -> indexedCompletion = v.path("stringValue").asText();
        case "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens" -> reported = Long.parseLong(v.path("intValue").asText());
        default -> {
          // OpenLLMetry: gen_ai.prompt.N.content
          if (key.startsWith("gen_ai.prompt.") && key.endsWith(".content")) {
            indexedPrompt.put(Integer.parseInt(key.substring(14, key.length() - 8)), v.path("stringValue").asText());
          }
        }
      }
    }
    String id = responseId != null ? responseId : span.path("traceId").asText() + ":" + span.path("spanId").asText();
    List<String> contents = new ArrayList<>();
    if (input != null) {
      for (JsonNode m : JSON.readTree(input)) {
        contents.add(m.path("parts").get(0).path("content").asText());
      }
    } else {
      contents.addAll(indexedPrompt.values());
    }
    long tokens = 0;
    long chars = 0;
    for (String c : contents) {
      tokens += TokenCount.count(c);
      chars += c.length();
    }
    long start = Long.parseLong(span.path("startTimeUnixNano").asText()) / 1_000_000;
    long end = Long.parseLong(span.path("endTimeUnixNano").asText()) / 1_000_000;
    boolean failed = span.path("status").path("code").asInt() == 2;
    String error = failed ? span.path("status").path("message").asText() : null;
    // The instrumentations set no HTTP status: a failure's is in its error text ("Error code: 400 - ...").
    int status = !failed ? 200 : error.startsWith("Error code: ") ? Integer.parseInt(error.substring(12, 15)) : 0;
    GatewayRecord bare = new GatewayRecord(id, "otlp", file, tenant, !failed, status, start, end, end, reported, tokens,
        chars, -1, error, List.of(), null);
    if (!keep.test(bare)) {
      return bare;
    }
    String response = output != null ? JSON.readTree(output).get(0).path("parts").get(0).path("content").asText()
        : indexedCompletion;
    return withTexts(bare, contents, response);
  }
}

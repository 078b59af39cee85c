package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An over-length request on a PD pair whose servers each made their own rid, end to end: the
 * engine logs are fixtures written line by line from SGLang's format strings
 * ({@code src/test/resources/fixtures/sglang-pd}: a TP4 prefill node whose clock runs 40 s fast,
 * a TP8 decode node 30 s slow), the gateway records LiteLLM payloads whose response ids name the
 * decode rids. The gateway reports the over-length request's prompt as the stub's 1 token; only
 * the prefill node, reached through the bootstrap room, knows it was 707,640 tokens over a pool of
 * 681,280, and that it prefilled one token.
 */
class SglangPdEndToEndTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OVER_LENGTH = "4e6a8c0b2d4f46a8b0c2e4a6c8e0b2d4";
  /** Decode rids and the gateway's start of each (true time), healthy ones with their prompt tokens. */
  private static final List<Object[]> HEALTHY = List.of(
      new Object[] {"63b1b22dad53465b92560ebdda56d075", "2026-08-27T10:00:00Z", 2048},
      new Object[] {"0f4d2a9c6b8e41d7a3c5e7f9b1d3f5a7", "2026-08-27T10:00:20Z", 1500},
      new Object[] {"b7d9f1a3c5e74b2d8f0a2c4e6b8d0f1a", "2026-08-27T10:00:40Z", 3000});

  @TempDir Path tmp;

  @Test
  void anOverLengthRequestWithDifferentPrefillAndDecodeRidsIsFoundWithThePrefillNodesPool() throws Exception {
    Path incident = tmp.resolve("incident");
    for (String node : List.of("sglang-prefill-0.log", "sglang-decode-0.log")) {
      copyFixture("engine/" + node, incident.resolve("engine").resolve(node));
    }
    List<String> gateway = new ArrayList<>();
    for (Object[] h : HEALTHY) {
      int tokens = (int) h[2];
      gateway.add(payload((String) h[0], (String) h[1], "acme", tokens, "word ".repeat(tokens)));
    }
    gateway.add(payload(OVER_LENGTH, "2026-08-27T10:01:00Z", "globex", 1, "a long pasted manual ".repeat(2_000)));
    Files.createDirectories(incident.resolve("gateway"));
    Files.write(incident.resolve("gateway/litellm-2026-08-27.jsonl"), gateway, StandardCharsets.UTF_8);
    Path index = tmp.resolve("index");
    Path reports = tmp.resolve("reports");

    CliTestSupport.Run ingest = CliTestSupport.run("ingest", incident.toString(), "--index", index.toString());
    assertThat(ingest.exitCode()).isZero();
    assertThat(ingest.out()).contains("Join gateway <-> engine: 4 of 4 requests")
        .contains("decode side: 4 requests by the gateway's rid")
        .contains("prefill side: 4 through the bootstrap room, 0 by the same rid")
        .doesNotContain("unmatched");

    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", index.toString(), "--out", reports.toString(),
        "-q");
    assertThat(analyze.exitCode()).as(analyze.err()).isIn(0, 1);
    JsonNode report = JSON.readTree(reports.resolve("report.json").toFile());
    JsonNode overLength = finding(report, "over_length_accepted");
    JsonNode underrun = finding(report, "prefill_underrun");

    assertThat(overLength).as("over_length_accepted for the request").isNotNull();
    JsonNode evidence = overLength.get("evidence");
    assertThat(evidence.get("prefill_node").asText()).isEqualTo("sglang-prefill-0");
    assertThat(evidence.get("pool_tokens").asLong()).as("the prefill node's pool").isEqualTo(681_280L);
    assertThat(evidence.get("limit").asLong()).isEqualTo(681_280L);
    assertThat(evidence.get("prompt_tokens_used").asLong()).isEqualTo(707_640L);
    assertThat(evidence.get("engine_rejected").asBoolean()).isTrue();
    assertThat(evidence.get("rejection_quoted").asText()).isEqualTo("707640 > 681274");
    assertThat(overLength.get("engine_rid").asText()).isEqualTo(OVER_LENGTH);

    assertThat(underrun).as("prefill_underrun for the request").isNotNull();
    assertThat(underrun.get("evidence").get("observed_input_tokens").asLong()).isEqualTo(1L);
    assertThat(underrun.get("evidence").get("expected_input_tokens").asLong()).isEqualTo(707_640L);
    assertThat(report.get("summary").get("over_length_accepted").asLong()).isEqualTo(1);
    assertThat(report.get("summary").get("prefill_underruns").asLong()).isEqualTo(1);
  }

  private static JsonNode finding(JsonNode report, String kind) {
    for (JsonNode f : report.get("findings")) {
      if (f.get("kind").asText().equals(kind) && f.get("request_id").asText().equals("chatcmpl-" + OVER_LENGTH)) {
        return f;
      }
    }
    return null;
  }

  private static void copyFixture(String relative, Path target) throws IOException {
    Files.createDirectories(target.getParent());
    try (InputStream in = SglangPdEndToEndTest.class.getResourceAsStream("/fixtures/sglang-pd/" + relative)) {
      assertThat(in).as("fixture " + relative).isNotNull();
      Files.copy(in, target);
    }
  }

  /** A LiteLLM StandardLoggingPayload of a successful chat completion (the fields kvscope reads). */
  private static String payload(String decodeRid, String start, String org, int promptTokens, String prompt)
      throws IOException {
    double seconds = Instant.parse(start).toEpochMilli() / 1000.0;
    ObjectNode p = JSON.createObjectNode();
    p.put("id", "chatcmpl-" + decodeRid);
    p.put("trace_id", "trace-" + decodeRid);
    p.put("call_type", "acompletion");
    p.put("status", "success");
    p.put("startTime", seconds);
    p.put("endTime", seconds + 9.5);
    p.put("completionStartTime", seconds + 0.4);
    p.put("response_time", 9.5);
    p.put("model", "qwen2.5-14b-1m");
    p.putObject("metadata").put("user_api_key_org_id", org);
    p.put("prompt_tokens", promptTokens);
    p.put("completion_tokens", 64);
    p.put("api_base", "http://pd-router.internal:8000/v1");
    p.put("model_group", "qwen-1m");
    p.putArray("messages").addObject().put("role", "user").put("content", prompt);
    ObjectNode response = p.putObject("response");
    response.put("id", "chatcmpl-" + decodeRid);
    response.put("object", "chat.completion");
    ObjectNode choice = response.putArray("choices").addObject();
    choice.put("finish_reason", "stop");
    choice.put("index", 0);
    choice.putObject("message").put("role", "assistant").put("content", "Here is the summary you asked for.");
    ObjectNode usage = response.putObject("usage");
    usage.put("prompt_tokens", promptTokens);
    usage.put("completion_tokens", 64);
    usage.put("total_tokens", promptTokens + 64);
    return JSON.writeValueAsString(p);
  }
}

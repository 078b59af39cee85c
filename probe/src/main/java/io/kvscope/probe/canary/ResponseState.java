package io.kvscope.probe.canary;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A response as it streams in. Chat chunks carry {@code choices[0].delta.content} and, last,
 * {@code usage}; SGLang's {@code /generate} events carry {@code text} (the whole text so far in
 * its default mode, only the new part with incremental output) and {@code meta_info}. Either may
 * carry an {@code error} object instead: SGLang reports a request it refuses after the stream has
 * started that way, inside an HTTP 200, so an error event is a refusal, not an answer.
 */
final class ResponseState {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Api api;
  private final int maxChars;
  private final StringBuilder text = new StringBuilder();
  private String lastWhole = "";
  Long promptTokens;
  Long completionTokens;
  String finishReason;
  String inBandError;
  long firstTokenNanos = -1;
  int events;
  int unreadable;
  boolean truncated;

  ResponseState(Api api, int maxChars) {
    this.api = api;
    this.maxChars = maxChars;
  }

  void accept(String payload, long nanos) {
    JsonNode root;
    try {
      root = JSON.readTree(payload);
    } catch (JsonProcessingException notJson) {
      unreadable++;
      return;
    }
    if (root == null || !root.isObject()) {
      unreadable++;
      return;
    }
    events++;
    String error = errorOf(root);
    if (error != null) {
      inBandError = error;
      return;
    }
    if (api == Api.CHAT) {
      JsonNode choice = root.path("choices").path(0);
      append(choice.path("delta").path("content"), nanos);
      append(choice.path("delta").path("reasoning_content"), nanos);
      append(choice.path("message").path("content"), nanos); // a server that did not stream
      finish(choice.get("finish_reason"));
      JsonNode usage = root.get("usage");
      if (usage != null && usage.isObject()) {
        promptTokens = count(usage.get("prompt_tokens"), promptTokens);
        completionTokens = count(usage.get("completion_tokens"), completionTokens);
      }
    } else {
      JsonNode t = root.get("text");
      if (t != null && t.isTextual()) {
        String s = t.textValue();
        // Cumulative by default: each event repeats the text so far.
        String added = s.startsWith(lastWhole) ? s.substring(lastWhole.length()) : s;
        lastWhole = s.startsWith(lastWhole) ? s : lastWhole + s;
        appendText(added, nanos);
      }
      JsonNode meta = root.get("meta_info");
      if (meta != null && meta.isObject()) {
        promptTokens = count(meta.get("prompt_tokens"), promptTokens);
        completionTokens = count(meta.get("completion_tokens"), completionTokens);
        finish(meta.get("finish_reason"));
      }
    }
  }

  String text() {
    return text.toString();
  }

  private void append(JsonNode node, long nanos) {
    if (node != null && node.isTextual()) {
      appendText(node.textValue(), nanos);
    }
  }

  private void appendText(String s, long nanos) {
    if (s.isEmpty()) {
      return;
    }
    if (firstTokenNanos < 0) {
      firstTokenNanos = nanos;
    }
    int room = maxChars - text.length();
    if (room <= 0) {
      truncated = true;
      return;
    }
    text.append(s, 0, Math.min(room, s.length()));
    truncated |= s.length() > room;
  }

  private void finish(JsonNode reason) {
    if (reason == null || reason.isNull()) {
      return;
    }
    finishReason = reason.isObject() ? reason.path("type").asText(null) : reason.asText(null);
  }

  /** {@code {"error": {"message": ...}}}, {@code {"object": "error", "message": ...}}, or null. */
  static String errorOf(JsonNode root) {
    JsonNode error = root.get("error");
    if (error != null && !error.isNull()) {
      return error.isObject() ? error.path("message").asText(error.toString()) : error.asText();
    }
    if ("error".equals(root.path("object").asText(null))) {
      return root.path("message").asText("error");
    }
    return null;
  }

  private static Long count(JsonNode n, Long previous) {
    return n != null && n.canConvertToLong() && n.longValue() >= 0 ? Long.valueOf(n.longValue()) : previous;
  }
}

package io.kvscope.probe.canary;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/**
 * The two request paths a probe prompt can take (docs/formats.md, "SGLang HTTP endpoints"): the
 * OpenAI-compatible chat endpoint every engine and gateway serves, and SGLang's native
 * {@code /generate}. Both are asked to stream, so the time to the first token is measured, with
 * temperature 0 and a small output cap.
 */
public enum Api {
  CHAT("/v1/chat/completions"),
  GENERATE("/generate");

  /** Which paths a run uses. {@code AUTO}: both on SGLang, chat elsewhere. */
  public enum Choice {
    AUTO, CHAT, GENERATE, BOTH;

    public List<Api> resolve(boolean sglang) {
      return switch (this) {
        case CHAT -> List.of(Api.CHAT);
        case GENERATE -> List.of(Api.GENERATE);
        case BOTH -> List.of(Api.CHAT, Api.GENERATE);
        case AUTO -> sglang ? List.of(Api.CHAT, Api.GENERATE) : List.of(Api.CHAT);
      };
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private final String path;

  Api(String path) {
    this.path = path;
  }

  public String path() {
    return path;
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The request body. {@code tag} names the request where the API has a place for it (chat:
   * {@code user}; generate: {@code rid}), so the probe's requests can be found in engine and
   * gateway logs afterwards.
   */
  public String body(String model, String prompt, int maxNewTokens, String tag) {
    ObjectNode b = JSON.createObjectNode();
    if (this == CHAT) {
      b.put("model", model);
      b.putArray("messages").addObject().put("role", "user").put("content", prompt);
      b.put("max_tokens", maxNewTokens);
      b.put("temperature", 0);
      b.put("stream", true);
      b.putObject("stream_options").put("include_usage", true);
      b.put("user", tag);
    } else {
      b.put("text", prompt);
      b.putObject("sampling_params").put("max_new_tokens", maxNewTokens).put("temperature", 0);
      b.put("stream", true);
      b.put("rid", tag);
    }
    return b.toString();
  }
}

package io.kvscope.probe.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /v1/models}, the OpenAI model list: SGLang's {@code available_models} and vLLM's
 * {@code show_available_models} both fill {@code data[].max_model_len} with the context length the
 * server admits, and {@code owned_by} names the engine ({@code sglang}, {@code vllm}).
 */
final class ModelsResponse {

  private ModelsResponse() {}

  /** Adds what {@code body} shows and returns the model ids; empty when it is not a model list. */
  static List<String> read(String body, String source, Readings r) {
    JsonNode root = Json.object(body);
    List<String> ids = new ArrayList<>();
    JsonNode data = root == null ? null : root.get("data");
    if (data == null || !data.isArray()) {
      return ids;
    }
    for (int i = 0; i < data.size(); i++) {
      JsonNode card = data.get(i);
      String id = Json.text(card.get("id"));
      if (id != null) {
        ids.add(id);
      }
      JsonNode len = card.get("max_model_len");
      r.add(FactName.CONTEXT_LENGTH, Json.count(len), new Observation(source, "data[" + i + "].max_model_len", Json.raw(len)));
      String owner = Json.text(card.get("owned_by"));
      if (owner != null && (owner.equalsIgnoreCase("sglang") || owner.equalsIgnoreCase("vllm"))) {
        r.add(FactName.ENGINE, owner.toLowerCase(java.util.Locale.ROOT),
            new Observation(source, "data[" + i + "].owned_by", owner));
      }
    }
    return ids;
  }
}

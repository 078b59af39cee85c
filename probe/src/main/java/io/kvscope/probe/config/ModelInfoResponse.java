package io.kvscope.probe.config;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * SGLang's {@code GET /model_info} (older: {@code /get_model_info}): {@code model_path},
 * {@code tokenizer_path}, {@code is_generation}, {@code weight_version}, ... It carries no limit;
 * the probe keeps the model path as evidence of what was served.
 */
final class ModelInfoResponse {

  private ModelInfoResponse() {}

  static boolean read(String body, String source, Readings r) {
    JsonNode root = Json.object(body);
    if (root == null || !root.has("model_path")) {
      return false;
    }
    r.add(FactName.MODEL, Json.text(root.get("model_path")), new Observation(source, "model_path", Json.raw(root.get("model_path"))));
    return true;
  }
}

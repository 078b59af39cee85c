package io.kvscope.probe.config;

import com.fasterxml.jackson.databind.JsonNode;

/** vLLM's {@code GET /version} ({@code show_version}): {@code {"version": "0.10.1"}}. */
final class VersionResponse {

  private VersionResponse() {}

  static boolean read(String body, String source, Readings r) {
    JsonNode root = Json.object(body);
    String version = root == null ? null : Json.text(root.get("version"));
    if (version == null) {
      return false;
    }
    r.add(FactName.ENGINE_VERSION, version, new Observation(source, "version", version));
    return true;
  }
}

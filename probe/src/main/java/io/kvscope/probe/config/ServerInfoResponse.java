package io.kvscope.probe.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvscope.ingest.record.NodeRole;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * SGLang's {@code GET /server_info} (older releases: {@code /get_server_info}): the server's
 * arguments ({@code dataclasses.asdict(ServerArgs)}), the scheduler's info merged in (it carries
 * {@code max_total_num_tokens} and {@code max_req_input_len}), {@code internal_states} (one object
 * per DP rank) and {@code version}. Cited in docs/formats.md, "SGLang HTTP endpoints".
 *
 * <p>Read: {@code version}; {@code disaggregation_mode} (role); {@code context_length} (the
 * argument; {@code null} means "the model's own", which {@code /v1/models} then shows);
 * {@code max_total_num_tokens} and each rank's {@code memory_usage.token_capacity} (the pool);
 * {@code max_req_input_len}; {@code page_size}; {@code model_path}; {@code served_model_name};
 * {@code disaggregation_transfer_backend}; and the safeguards. ServerArgs is a dataclass dumped
 * whole, so when the dump is there (it has {@code model_path} and {@code page_size}) a missing
 * {@code kv_canary} or {@code disaggregation_enable_kv_checksum} means the build has no such
 * switch: disabled, as the log reader judges the same args. Deferred release has no flag name we
 * could confirm upstream; a key holding both "deferred" and "release" is read as it, and without
 * one the fact stays unknown.
 */
final class ServerInfoResponse {

  private ServerInfoResponse() {}

  /** Adds what {@code body} shows; false when it is not a server-info object. */
  static boolean read(String body, String source, Readings r) {
    JsonNode root = Json.object(body);
    if (root == null || !(root.has("version") || root.has("max_total_num_tokens") || root.has("disaggregation_mode"))) {
      return false;
    }
    r.add(FactName.ENGINE, "sglang", new Observation(source, "(response shape)", "server arguments and scheduler info"));
    r.add(FactName.ENGINE_VERSION, Json.text(root.get("version")), obs(source, "version", root));
    if (root.has("disaggregation_mode")) {
      String mode = Json.text(root.get("disaggregation_mode"));
      r.add(FactName.ROLE, mode == null ? NodeRole.UNIFIED : NodeRole.fromDisaggregationMode(mode),
          obs(source, "disaggregation_mode", root));
    }
    r.add(FactName.CONTEXT_LENGTH, Json.count(root.get("context_length")), obs(source, "context_length", root));
    r.add(FactName.POOL_TOKENS, Json.count(root.get("max_total_num_tokens")), obs(source, "max_total_num_tokens", root));
    JsonNode ranks = root.get("internal_states");
    if (ranks != null && ranks.isArray()) {
      for (int i = 0; i < ranks.size(); i++) {
        JsonNode rank = ranks.get(i);
        JsonNode capacity = rank.path("memory_usage").get("token_capacity");
        r.add(FactName.POOL_TOKENS, Json.count(capacity),
            new Observation(source, "internal_states[" + i + "].memory_usage.token_capacity", Json.raw(capacity)));
      }
    }
    r.add(FactName.MAX_REQUEST_INPUT, Json.count(root.get("max_req_input_len")), obs(source, "max_req_input_len", root));
    Long page = Json.count(root.get("page_size"));
    r.add(FactName.PAGE_SIZE, page == null || page > Integer.MAX_VALUE ? null : page.intValue(), obs(source, "page_size", root));
    r.add(FactName.MODEL, Json.text(root.get("model_path")), obs(source, "model_path", root));
    r.add(FactName.SERVED_MODEL, Json.text(root.get("served_model_name")), obs(source, "served_model_name", root));
    r.add(FactName.TRANSFER_BACKEND, Json.text(root.get("disaggregation_transfer_backend")),
        obs(source, "disaggregation_transfer_backend", root));
    boolean wholeDump = root.has("model_path") && root.has("page_size");
    safeguard(r, FactName.KV_CANARY, "kv_canary", root, source, wholeDump);
    safeguard(r, FactName.KV_CHECKSUM, "disaggregation_enable_kv_checksum", root, source, wholeDump);
    deferredRelease(r, root, source);
    return true;
  }

  private static void safeguard(Readings r, FactName fact, String key, JsonNode root, String source, boolean wholeDump) {
    if (root.has(key)) {
      r.add(fact, enabled(root.get(key)), obs(source, key, root));
    } else if (wholeDump) {
      r.add(fact, Boolean.FALSE, new Observation(source, key, "absent from the server arguments"));
    }
  }

  private static void deferredRelease(Readings r, JsonNode root, String source) {
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String key = e.getKey().toLowerCase(Locale.ROOT);
      if (key.contains("deferred") && key.contains("release")) {
        r.add(FactName.DEFERRED_RELEASE, enabled(e.getValue()), new Observation(source, e.getKey(), Json.raw(e.getValue())));
      }
    }
  }

  /** {@code null}, {@code false}, 0 and modes such as "off" mean disabled; any other mode enabled. */
  static Boolean enabled(JsonNode value) {
    if (value == null || value.isNull()) {
      return Boolean.FALSE;
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    if (value.isNumber()) {
      return value.doubleValue() != 0;
    }
    if (value.isTextual()) {
      return switch (value.textValue().strip().toLowerCase(Locale.ROOT)) {
        case "", "off", "none", "null", "disabled", "disable", "false", "0", "no" -> Boolean.FALSE;
        default -> Boolean.TRUE;
      };
    }
    return null;
  }

  private static Observation obs(String source, String key, JsonNode root) {
    return new Observation(source, key, Json.raw(root.get(key)));
  }
}

package io.kvscope.ingest.engine.sglang;

import io.kvscope.ingest.engine.EpochTracker;
import io.kvscope.ingest.engine.pyrepr.PyReprParser;
import io.kvscope.ingest.engine.pyrepr.PyValue;
import io.kvscope.ingest.engine.pyrepr.ReadSelection;
import io.kvscope.ingest.record.NodeRole;
import java.util.Locale;
import java.util.Map;

/**
 * The startup line {@code server_args=ServerArgs(...)}: the node's role and configured limits.
 *
 * <p>Keys read: {@code disaggregation_mode} (role; a ServerArgs without it predates disaggregation
 * and is {@code UNIFIED}), {@code context_length}, {@code page_size},
 * {@code disaggregation_transfer_backend}, {@code model_path}, {@code served_model_name},
 * {@code kv_canary} ({@code None}, {@code False} or a mode such as {@code 'off'} mean disabled; any
 * other mode such as {@code 'log'} or {@code 'raise'} means enabled),
 * {@code disaggregation_enable_kv_checksum}, and the server's own {@code host} and {@code port} (the
 * address metrics scrapes and PD peers know it by). ServerArgs has no engine version field
 * ({@code weight_version} is the model weights' label, not the release), so the version comes
 * from deployment records. ServerArgs is a dataclass whose repr prints every field, so a missing
 * {@code kv_canary} or checksum key means the build has no such safeguard: recorded as disabled.
 *
 * <p>Deferred KV release has no flag name we could confirm in SGLang's sources; any key containing
 * both {@code deferred} and {@code release} (e.g. {@code disaggregation_deferred_kv_release=True}) is
 * read as that switch. Without such a key the epoch says "unknown" ({@code null}), not "disabled".
 */
final class ServerArgsLine {

  static final String MARKER = "server_args=ServerArgs(";

  private static final ReadSelection WANT = ReadSelection.keys(
      "disaggregation_mode", "context_length", "page_size", "disaggregation_transfer_backend",
      "model_path", "served_model_name", "kv_canary", "disaggregation_enable_kv_checksum", "host", "port")
      .or(ReadSelection.matching(ServerArgsLine::isDeferredRelease));

  private ServerArgsLine() {}

  /**
   * Reads the ServerArgs starting at {@code markerAt} into {@code draft}.
   *
   * @throws io.kvscope.ingest.engine.pyrepr.PyReprException when the repr is cut or garbled
   */
  static void read(String line, int markerAt, EpochTracker.Draft draft) {
    PyReprParser parser = new PyReprParser(line, markerAt + "server_args=".length());
    PyValue args = parser.value(WANT);
    if (!(args instanceof PyValue.Call call)) {
      throw new io.kvscope.ingest.engine.pyrepr.PyReprException("ServerArgs(...) expected");
    }
    Map<String, PyValue> kw = call.keywords();
    draft.role = role(kw.get("disaggregation_mode"));
    draft.contextLength = number(kw.get("context_length"));
    Long page = number(kw.get("page_size"));
    draft.pageSize = page == null || page > Integer.MAX_VALUE ? null : page.intValue();
    draft.transferBackend = text(kw.get("disaggregation_transfer_backend"));
    draft.model = text(kw.get("model_path"));
    draft.servedModelName = text(kw.get("served_model_name"));
    draft.kvCanary = canary(kw.get("kv_canary"));
    PyValue checksum = kw.get("disaggregation_enable_kv_checksum");
    draft.kvChecksum = checksum == null ? Boolean.FALSE : Boolean.TRUE.equals(checksum.asBoolean());
    draft.deferredRelease = deferred(kw);
    draft.host = text(kw.get("host"));
    draft.port = number(kw.get("port"));
  }

  static NodeRole role(PyValue mode) {
    if (mode == null || mode.isNone()) {
      return NodeRole.UNIFIED;
    }
    String t = mode.text();
    if (t == null) {
      return NodeRole.UNKNOWN;
    }
    int dot = t.lastIndexOf('.'); // DisaggregationMode.PREFILL
    return NodeRole.fromDisaggregationMode(dot >= 0 ? t.substring(dot + 1) : t);
  }

  static Boolean canary(PyValue value) {
    if (value == null || value.isNone()) {
      return Boolean.FALSE;
    }
    Boolean b = value.asBoolean();
    if (b != null) {
      return b;
    }
    String t = value.text();
    if (t == null) {
      return null;
    }
    return switch (t.strip().toLowerCase(Locale.ROOT)) {
      case "", "off", "none", "disabled", "disable", "0", "no" -> Boolean.FALSE;
      default -> Boolean.TRUE;
    };
  }

  private static Boolean deferred(Map<String, PyValue> kw) {
    Boolean result = null;
    for (Map.Entry<String, PyValue> e : kw.entrySet()) {
      if (isDeferredRelease(e.getKey())) {
        Boolean b = e.getValue().asBoolean();
        if (b == null) {
          b = e.getValue().isNone() ? Boolean.FALSE : null;
        }
        if (b != null) {
          result = Boolean.TRUE.equals(result) || b;
        }
      }
    }
    return result;
  }

  private static boolean isDeferredRelease(String key) {
    return key.contains("deferred") && key.contains("release");
  }

  private static Long number(PyValue v) {
    return v == null ? null : v.asLong();
  }

  private static String text(PyValue v) {
    if (v == null || v.isNone()) {
      return null;
    }
    if (v instanceof PyValue.Seq s && !s.items().isEmpty()) {
      return text(s.items().get(0));
    }
    String t = v.text();
    return t == null || t.isBlank() ? null : t;
  }
}

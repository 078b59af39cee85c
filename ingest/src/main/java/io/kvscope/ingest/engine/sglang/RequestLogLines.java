package io.kvscope.ingest.engine.sglang;

import io.kvscope.ingest.engine.EventBuilder;
import io.kvscope.ingest.engine.pyrepr.PyReprParser;
import io.kvscope.ingest.engine.pyrepr.PyValue;
import io.kvscope.ingest.engine.pyrepr.ReadSelection;
import io.kvscope.ingest.record.EngineEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * SGLang's request logger ({@code --log-requests}), text variant:
 * <ul>
 *   <li>{@code Receive: obj=GenerateReqInput(rid='r', ..., bootstrap_room=N, ...)} becomes
 *       {@code RECEIVED} (rid, bootstrap room);
 *   <li>{@code Finish: obj=GenerateReqInput(...), out={..., 'meta_info': {'id': 'r',
 *       'finish_reason': {'type': 'stop', ...}, 'prompt_tokens': n, 'completion_tokens': n,
 *       'cached_tokens': n, 'e2e_latency': seconds, ...}}} becomes {@code FINISHED}.
 * </ul>
 * A batch request ({@code rid=['a', 'b']}) yields one event per rid. Only ids, counts and the
 * finish type are read; {@code text}, {@code input_ids}, {@code output_ids} and everything else
 * are scanned past, whatever the log level put in them.
 */
final class RequestLogLines {

  static final String RECEIVE = "Receive: ";
  static final String FINISH = "Finish: ";

  private static final ReadSelection OBJ = ReadSelection.keys("rid", "bootstrap_room", "bootstrap_host");
  /** The host SGLang puts in health-check and warm-up requests (disaggregation/utils.py): no peer. */
  private static final String FAKE_BOOTSTRAP_HOST = "2.2.2.2";
  private static final ReadSelection RECEIVE_WANT = ReadSelection.keys(Map.of("obj", OBJ));
  private static final ReadSelection FINISH_WANT = ReadSelection.keys(Map.of("obj", OBJ,
      "out", ReadSelection.keys(Map.of("meta_info", ReadSelection.keys("id", "finish_reason", "prompt_tokens",
          "completion_tokens", "cached_tokens", "e2e_latency"))),
      "meta_info", ReadSelection.keys("id", "finish_reason", "prompt_tokens", "completion_tokens",
          "cached_tokens", "e2e_latency")));

  private RequestLogLines() {}

  /** Events of a {@code Receive:} message starting at {@code at}. */
  static List<EventBuilder> receive(String line, int at, EventSeed seed) {
    Map<String, PyValue> kw = new PyReprParser(line, at + RECEIVE.length()).keywordsToEnd(RECEIVE_WANT);
    PyValue obj = kw.get("obj");
    if (obj == null) {
      throw new io.kvscope.ingest.engine.pyrepr.PyReprException("Receive line without obj=");
    }
    List<String> rids = texts(obj.get("rid"));
    List<Long> rooms = numbers(obj.get("bootstrap_room"));
    List<String> hosts = texts(obj.get("bootstrap_host"));
    List<EventBuilder> events = new ArrayList<>();
    for (int i = 0; i < Math.max(1, rids.size()); i++) {
      events.add(seed.event(EngineEvent.Kind.RECEIVED)
          .rid(i < rids.size() ? rids.get(i) : null)
          .bootstrapRoom(pick(rooms, i))
          .bootstrapHost(peerHost(hosts, i)));
    }
    return events;
  }

  /** Events of a {@code Finish:} message starting at {@code at}. */
  static List<EventBuilder> finish(String line, int at, EventSeed seed) {
    Map<String, PyValue> kw = new PyReprParser(line, at + FINISH.length()).keywordsToEnd(FINISH_WANT);
    PyValue obj = kw.get("obj");
    PyValue out = kw.get("out");
    if (out == null) {
      throw new io.kvscope.ingest.engine.pyrepr.PyReprException("Finish line without out=");
    }
    List<PyValue> outs = out instanceof PyValue.Seq s ? s.items() : List.of(out);
    List<String> rids = obj == null ? List.of() : texts(obj.get("rid"));
    List<Long> rooms = obj == null ? List.of() : numbers(obj.get("bootstrap_room"));
    List<EventBuilder> events = new ArrayList<>();
    for (int i = 0; i < outs.size(); i++) {
      PyValue meta = outs.get(i).get("meta_info");
      if (meta == null) {
        throw new io.kvscope.ingest.engine.pyrepr.PyReprException("Finish line without meta_info");
      }
      String rid = i < rids.size() ? rids.get(i) : null;
      if (rid == null) {
        rid = text(meta.get("id"));
      }
      events.add(seed.event(EngineEvent.Kind.FINISHED)
          .rid(rid)
          .bootstrapRoom(pick(rooms, i))
          .inputLen(number(meta.get("prompt_tokens")))
          .outputLen(number(meta.get("completion_tokens")))
          .cachedLen(number(meta.get("cached_tokens")))
          .e2eLatencyMillis(seconds(meta.get("e2e_latency")))
          .finishReason(finishType(meta.get("finish_reason"))));
    }
    return events;
  }

  /**
   * The finish type: {@code {'type': 'stop', ...}} gives {@code stop}; older builds print a string
   * such as {@code 'FINISH_LENGTH: 16'}, mapped to {@code stop}/{@code length}/{@code abort}.
   */
  static String finishType(PyValue reason) {
    if (reason == null || reason.isNone()) {
      return null;
    }
    PyValue type = reason.get("type");
    if (type != null) {
      return text(type);
    }
    return finishType(reason.text());
  }

  static String finishType(String reason) {
    if (reason == null || reason.isBlank()) {
      return null;
    }
    String head = reason.strip();
    int colon = head.indexOf(':');
    if (colon >= 0) {
      head = head.substring(0, colon);
    }
    head = head.strip().toUpperCase(Locale.ROOT);
    return switch (head) {
      case "FINISH_MATCHED_TOKEN", "FINISH_MATCHED_STR", "STOP" -> "stop";
      case "FINISH_LENGTH", "LENGTH" -> "length";
      case "FINISH_ABORT", "ABORT" -> "abort";
      default -> head.length() <= 32 ? head.toLowerCase(Locale.ROOT) : null;
    };
  }

  private static List<String> texts(PyValue v) {
    if (v == null || v.isNone()) {
      return List.of();
    }
    if (v instanceof PyValue.Seq s) {
      List<String> out = new ArrayList<>();
      for (PyValue item : s.items()) {
        out.add(text(item));
      }
      return out;
    }
    String t = text(v);
    return t == null ? List.of() : List.of(t);
  }

  private static List<Long> numbers(PyValue v) {
    if (v == null || v.isNone()) {
      return List.of();
    }
    if (v instanceof PyValue.Seq s) {
      List<Long> out = new ArrayList<>();
      for (PyValue item : s.items()) {
        out.add(number(item));
      }
      return out;
    }
    return java.util.Collections.singletonList(number(v));
  }

  /** The prefill peer the router named for the {@code i}th request, or null (none, or SGLang's fake one). */
  private static String peerHost(List<String> hosts, int i) {
    String host = hosts.isEmpty() ? null : hosts.size() == 1 ? hosts.get(0) : i < hosts.size() ? hosts.get(i) : null;
    return host == null || host.isBlank() || host.equals(FAKE_BOOTSTRAP_HOST) ? null : host.strip();
  }

  private static Long pick(List<Long> values, int i) {
    if (values.isEmpty()) {
      return null;
    }
    return values.size() == 1 ? values.get(0) : i < values.size() ? values.get(i) : null;
  }

  private static String text(PyValue v) {
    return v == null || v.isNone() ? null : v.text();
  }

  private static Long number(PyValue v) {
    return v == null || v.isNone() ? null : v.asLong();
  }

  private static Double seconds(PyValue v) {
    Double s = v == null || v.isNone() ? null : v.asDouble();
    return s == null ? null : s * 1000.0;
  }
}

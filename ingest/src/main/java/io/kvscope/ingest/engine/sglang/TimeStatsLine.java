package io.kvscope.ingest.engine.sglang;

import io.kvscope.ingest.engine.EventBuilder;
import io.kvscope.ingest.engine.Numbers;
import io.kvscope.ingest.engine.pyrepr.PyReprException;
import io.kvscope.ingest.engine.pyrepr.PyReprParser;
import io.kvscope.ingest.engine.pyrepr.PyValue;
import io.kvscope.ingest.engine.pyrepr.Want;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeRole;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Per-request timing ({@code --enable-request-time-stats-logging}):
 * {@code ReqTimeStats(rid=..., bootstrap_room=..., input_len=..., cached_input_len=...,
 * output_len=..., [attempts=...,] type=prefill|decode|unified): <stage durations>}.
 *
 * <p>Header: rid (quoted or bare), bootstrap room, the three lengths and the type. {@code input_len}
 * is what the engine prefilled: a rejected request shows the one-token stub, {@code input_len=1}.
 *
 * <p>Body: SGLang formats every duration as {@code f"{seconds * 1e3:.2f}ms"} (e.g.
 * {@code transfer_duration=3.00ms}); some builds print a breakdown as {@code name(1.00ms)}. Both are
 * read; a duration printed with {@code s} or with no unit is in seconds (Python's own unit),
 * {@code us} in microseconds. Read: {@code transfer_total=132.20 MB} (prefill side; {@code GB}/{@code KB}
 * converted) into {@code transferMb}, and {@code transfer_duration} (decode side; also
 * {@code transfer_latency} if present) into {@code transferMillis}. The prefill side prints no
 * transfer duration, only a speed; it is not turned into one.
 */
final class TimeStatsLine {

  static final String MARKER = "ReqTimeStats(";

  private static final Want HEADER = Want.keys("rid", "bootstrap_room", "input_len", "cached_input_len",
      "output_len", "type");
  private static final Pattern FIELD = Pattern.compile(
      "([A-Za-z_#][A-Za-z0-9_#]*)\\s*(?:=|\\()\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)\\s*"
          + "(ms|us|\u00b5s|GB/s|MB|GB|KB|s)?(?![A-Za-z/])");

  private TimeStatsLine() {}

  /**
   * The TIME_STATS event of the line, whose {@code ReqTimeStats(} starts at {@code at}.
   *
   * @throws PyReprException when the header is cut, has no rid, or has non-numeric lengths
   */
  static EventBuilder read(String line, int at, EventSeed seed) {
    PyReprParser parser = new PyReprParser(line, at);
    PyValue header = parser.value(HEADER);
    if (!(header instanceof PyValue.Call call)) {
      throw new PyReprException("ReqTimeStats(...) expected");
    }
    Map<String, PyValue> kw = call.keywords();
    String rid = kw.get("rid") == null || kw.get("rid").isNone() ? null : kw.get("rid").text();
    if (rid == null || rid.isBlank()) {
      throw new PyReprException("ReqTimeStats without a rid");
    }
    Long input = length(kw, "input_len");
    Long cached = length(kw, "cached_input_len");
    Long output = length(kw, "output_len");
    Map<String, Quantity> body = body(line, parser.position());
    EventSeed typed = seed.role() == NodeRole.UNKNOWN ? seed.as(roleOf(kw.get("type"))) : seed;
    return typed.event(EngineEvent.Kind.TIME_STATS)
        .rid(rid)
        .bootstrapRoom(kw.get("bootstrap_room") == null ? null : kw.get("bootstrap_room").asLong())
        .inputLen(input)
        .cachedLen(cached)
        .outputLen(output)
        .transferMb(megabytes(body.get("transfer_total")))
        .transferMillis(millis(body.containsKey("transfer_duration")
            ? body.get("transfer_duration") : body.get("transfer_latency")));
  }

  /** A printed quantity: its number and unit ({@code ""} when none). */
  private record Quantity(double value, String unit) {}

  /** name -> quantity; a name printed twice keeps its last value. */
  private static Map<String, Quantity> body(String line, int from) {
    Map<String, Quantity> fields = new HashMap<>();
    Matcher m = FIELD.matcher(line);
    m.region(from, line.length());
    while (m.find()) {
      fields.put(m.group(1), new Quantity(Double.parseDouble(m.group(2)),
          m.group(3) == null ? "" : m.group(3)));
    }
    return fields;
  }

  private static Double millis(Quantity q) {
    return q == null ? null : Numbers.millis(q.value(), q.unit());
  }

  private static Double megabytes(Quantity q) {
    return q == null ? null : Numbers.megabytes(q.value(), q.unit().isEmpty() ? "MB" : q.unit());
  }

  private static Long length(Map<String, PyValue> kw, String key) {
    PyValue v = kw.get(key);
    if (v == null || v.isNone()) {
      return null;
    }
    Long n = v.asLong();
    if (n == null) {
      throw new PyReprException("ReqTimeStats " + key + " is not a number");
    }
    return n;
  }

  private static NodeRole roleOf(PyValue type) {
    String t = type == null ? null : type.text();
    if (t == null) {
      return NodeRole.UNKNOWN;
    }
    return switch (t.strip().toLowerCase(Locale.ROOT)) {
      case "prefill" -> NodeRole.PREFILL;
      case "decode" -> NodeRole.DECODE;
      case "unified" -> NodeRole.UNIFIED;
      default -> NodeRole.UNKNOWN;
    };
  }
}

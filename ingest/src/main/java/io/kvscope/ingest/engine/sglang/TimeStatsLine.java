package io.kvscope.ingest.engine.sglang;

import io.kvscope.ingest.engine.EventBuilder;
import io.kvscope.ingest.engine.Numbers;
import io.kvscope.ingest.engine.pyrepr.PyReprException;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeRole;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Per-request timing ({@code --enable-request-time-stats-logging}), written by
 * {@code Req.log_time_stats} once per finished request on the scheduler's rank 0. Two header shapes
 * (docs/formats.md cites the versions):
 * <ul>
 *   <li>{@code Req Time Stats(rid=R, bootstrap_room=N, input len=N, output len=N, type=prefill): ...}
 *   <li>{@code ReqTimeStats(rid=R, bootstrap_room=N, input_len=N, cached_input_len=N, output_len=N,
 *       type=prefill): ...} (later builds; some add {@code attempts=N})
 * </ul>
 * The rid is printed bare ({@code rid={self.rid}}); a quoted one is unquoted. {@code bootstrap_room}
 * is left out when the request has none. {@code input len} is {@code len(origin_input_ids)}: what the
 * node prefilled, so a rejected request whose input was replaced by the one-token placeholder shows
 * {@code input len=1} on the prefill node, while the decode node shows the full prompt it reserved.
 *
 * <p>Body: every duration is {@code f"{seconds * 1e3:.2f}ms"}, written {@code name=1.23ms} or
 * {@code name(1.23ms)} ({@code bootstrap_queue_duration(4.10ms) = bootstrap(3.00ms) + alloc_wait(1.10ms);
 * ...}). Read: {@code transfer_total=159.03MB} (prefill side; also {@code 159.03 MB}, and
 * {@code GB}/{@code KB} converted) into {@code transferMb}, and {@code transfer_duration} (decode side;
 * also {@code transfer_latency} if present) into {@code transferMillis}. The prefill side prints no
 * transfer duration, only a speed; it is not turned into one.
 */
final class TimeStatsLine {

  static final String MARKER = "Req Time Stats(";
  static final String COMPACT_MARKER = "ReqTimeStats(";

  /** Keys that may follow the rid; the rid runs up to the first of them (rids are free text). */
  private static final String[] AFTER_RID = {", bootstrap_room=", ", input len=", ", input_len="};
  private static final Pattern FIELD = Pattern.compile(
      "([A-Za-z_#][A-Za-z0-9_#]*)\\s*(?:=|\\()\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)\\s*"
          + "(ms|us|\u00b5s|GB/s|MB|GB|KB|s)?(?![A-Za-z/])");

  private TimeStatsLine() {}

  /** Where the line's time-stats marker starts at or after {@code at}, or -1. */
  static int find(String line, int at) {
    int spaced = line.indexOf(MARKER, at);
    return spaced >= 0 ? spaced : line.indexOf(COMPACT_MARKER, at);
  }

  /**
   * The TIME_STATS event of the line, whose marker starts at {@code markerAt}.
   *
   * @throws PyReprException when the header is cut, has no rid, or has non-numeric lengths
   */
  static EventBuilder read(String line, int markerAt, EventSeed seed) {
    int open = line.indexOf('(', markerAt) + 1;
    if (!line.startsWith("rid=", open)) {
      throw new PyReprException("time stats without a rid");
    }
    int close = headerEnd(line, open);
    int ridStart = open + "rid=".length();
    int ridEnd = close;
    for (String key : AFTER_RID) {
      int at = line.indexOf(key, ridStart);
      if (at >= 0 && at < ridEnd) {
        ridEnd = at;
      }
    }
    String rid = unquote(line.substring(ridStart, ridEnd).strip());
    if (rid.isEmpty() || rid.equals("None")) {
      throw new PyReprException("time stats without a rid");
    }
    Map<String, String> header = header(line, ridEnd, close);
    Map<String, Quantity> body = body(line, close + 1);
    EventSeed typed = seed.role() == NodeRole.UNKNOWN ? seed.as(roleOf(header.get("type"))) : seed;
    return typed.event(EngineEvent.Kind.TIME_STATS)
        .rid(rid)
        .bootstrapRoom(number(header, "bootstrap_room"))
        .inputLen(number(header, "input_len"))
        .cachedLen(number(header, "cached_input_len"))
        .outputLen(number(header, "output_len"))
        .transferMb(megabytes(body.get("transfer_total")))
        .transferMillis(millis(body.containsKey("transfer_duration")
            ? body.get("transfer_duration") : body.get("transfer_latency")));
  }

  /** The {@code )} that closes the header: the one after {@code type=...}, else the first {@code ):}. */
  private static int headerEnd(String line, int open) {
    int type = line.indexOf(", type=", open);
    int close = type >= 0 ? line.indexOf(')', type) : line.indexOf("):", open);
    if (close < 0) {
      throw new PyReprException("time stats header is cut");
    }
    return close;
  }

  /** {@code , key=value} pairs between the rid and the closing parenthesis; spaced keys as snake_case. */
  private static Map<String, String> header(String line, int from, int close) {
    Map<String, String> pairs = new HashMap<>();
    for (String pair : line.substring(from, close).split(",")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        pairs.put(pair.substring(0, eq).strip().replace(' ', '_'), pair.substring(eq + 1).strip());
      }
    }
    return pairs;
  }

  private static Long number(Map<String, String> header, String key) {
    String value = header.get(key);
    if (value == null || value.equals("None")) {
      return null;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException notANumber) {
      throw new PyReprException("time stats " + key + " is not a number");
    }
  }

  private static String unquote(String value) {
    if (value.length() >= 2 && (value.charAt(0) == '\'' || value.charAt(0) == '"')
        && value.charAt(value.length() - 1) == value.charAt(0)) {
      return value.substring(1, value.length() - 1);
    }
    return value;
  }

  /** A printed quantity: its number and unit ({@code ""} when none). */
  private record Quantity(double value, String unit) {}

  /** name -> quantity; a name printed twice keeps its last value. */
  private static Map<String, Quantity> body(String line, int from) {
    Map<String, Quantity> fields = new HashMap<>();
    Matcher m = FIELD.matcher(line);
    m.region(Math.min(from, line.length()), line.length());
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

  private static NodeRole roleOf(String type) {
    if (type == null) {
      return NodeRole.UNKNOWN;
    }
    return switch (unquote(type).toLowerCase(Locale.ROOT)) {
      case "prefill" -> NodeRole.PREFILL;
      case "decode" -> NodeRole.DECODE;
      case "unified" -> NodeRole.UNIFIED;
      default -> NodeRole.UNKNOWN;
    };
  }
}

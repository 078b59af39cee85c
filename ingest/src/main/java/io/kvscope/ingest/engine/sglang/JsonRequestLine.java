package io.kvscope.ingest.engine.sglang;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.kvscope.ingest.engine.EventBuilder;
import java.io.IOException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SGLang's request logger in JSON ({@code --log-requests-format json}): one object a line, written
 * without the bracket prefix, {@code {"timestamp": "2026-08-27T10:00:01.123456", "event":
 * "request.received" | "request.finished", "rid": ..., "obj": {...}, "out": {"meta_info": {...}}}}.
 * The timestamp is Python's naive {@code datetime.now().isoformat()}, read as UTC like the prefix.
 *
 * <p>Read with a streaming parser along a fixed set of paths; every other member (prompt text,
 * token ids, output text) is skipped without being decoded.
 */
final class JsonRequestLine {

  static final String RECEIVED = "request.received";
  static final String FINISHED = "request.finished";

  private static final Set<String> WANTED = Set.of("timestamp", "event", "rid", "obj.rid",
      "obj.bootstrap_room", "out.meta_info.id", "out.meta_info.finish_reason",
      "out.meta_info.finish_reason.type", "out.meta_info.prompt_tokens",
      "out.meta_info.completion_tokens", "out.meta_info.cached_tokens", "out.meta_info.e2e_latency");
  private static final Set<String> DESCEND = Set.of("obj", "out", "out.meta_info",
      "out.meta_info.finish_reason");

  private final JsonFactory json = JsonFactory.builder()
      .streamReadConstraints(StreamReadConstraints.builder()
          .maxStringLength(Integer.MAX_VALUE).maxDocumentLength(-1).build())
      .build();

  /** Whether the message is one of the request logger's JSON events (cheap text check). */
  static boolean isRequestEvent(String line, int at) {
    return line.indexOf("\"" + RECEIVED + "\"", at) >= 0 || line.indexOf("\"" + FINISHED + "\"", at) >= 0;
  }

  /** The wanted members of the JSON object at {@code at}; values are text or lists of text. */
  Map<String, Object> read(String line, int at) throws IOException {
    Map<String, Object> out = new HashMap<>();
    try (JsonParser p = json.createParser(line.substring(at))) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("not a JSON object");
      }
      walk(p, "", out);
    }
    return out;
  }

  /**
   * Events of one logged request, or an empty list for events that are not about requests' fate.
   * {@code seed} carries the prefix time (or the last known time) for lines without a timestamp.
   */
  List<EventBuilder> events(Map<String, Object> m, EventSeed seed) {
    String event = first(m.get("event"));
    boolean finished = FINISHED.equals(event);
    if (!finished && !RECEIVED.equals(event)) {
      return List.of();
    }
    List<String> rids = all(m.get("obj.rid"));
    if (rids.isEmpty()) {
      rids = all(m.get("rid"));
    }
    if (rids.isEmpty() && finished) {
      rids = all(m.get("out.meta_info.id"));
    }
    List<String> rooms = all(m.get("obj.bootstrap_room"));
    List<EventBuilder> events = new ArrayList<>();
    for (int i = 0; i < Math.max(1, rids.size()); i++) {
      EventBuilder e = seed.event(finished
          ? io.kvscope.ingest.record.EngineEvent.Kind.FINISHED
          : io.kvscope.ingest.record.EngineEvent.Kind.RECEIVED)
          .rid(i < rids.size() ? rids.get(i) : null)
          .bootstrapRoom(number(rooms.size() == 1 ? rooms.get(0) : i < rooms.size() ? rooms.get(i) : null));
      if (finished) {
        String type = first(m.get("out.meta_info.finish_reason.type"));
        Double latency = decimal(first(m.get("out.meta_info.e2e_latency")));
        e.inputLen(number(first(m.get("out.meta_info.prompt_tokens"))))
            .outputLen(number(first(m.get("out.meta_info.completion_tokens"))))
            .cachedLen(number(first(m.get("out.meta_info.cached_tokens"))))
            .e2eLatencyMillis(latency == null ? null : latency * 1000.0)
            .finishReason(type != null ? type
                : RequestLogLines.finishType(first(m.get("out.meta_info.finish_reason"))));
      }
      events.add(e);
    }
    return events;
  }

  /** The {@code timestamp} member as UTC epoch ms, or {@code null} when absent or unreadable. */
  static Long time(Map<String, Object> m) {
    String t = first(m.get("timestamp"));
    if (t == null) {
      return null;
    }
    try {
      if (t.endsWith("Z") || t.matches(".*[+-]\\d{2}:?\\d{2}$")) {
        return OffsetDateTime.parse(t).toInstant().toEpochMilli();
      }
      return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC).toEpochMilli();
    } catch (DateTimeParseException unreadable) {
      return null;
    }
  }

  private static void walk(JsonParser p, String path, Map<String, Object> out) throws IOException {
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      String child = path.isEmpty() ? name : path + "." + name;
      JsonToken value = p.nextToken();
      if (value == null) {
        throw new IOException("JSON ends early");
      }
      if (value == JsonToken.START_OBJECT) {
        if (DESCEND.contains(child)) {
          walk(p, child, out);
        } else {
          p.skipChildren();
        }
      } else if (value == JsonToken.START_ARRAY) {
        if (WANTED.contains(child)) {
          out.put(child, scalars(p));
        } else {
          p.skipChildren();
        }
      } else if (value != JsonToken.VALUE_NULL && WANTED.contains(child)) {
        out.put(child, p.getText());
      }
    }
    if (t != JsonToken.END_OBJECT) {
      throw new IOException("JSON ends early");
    }
  }

  private static List<String> scalars(JsonParser p) throws IOException {
    List<String> items = new ArrayList<>();
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t == null) {
        throw new IOException("JSON ends early");
      }
      if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
        p.skipChildren();
        items.add(null);
      } else {
        items.add(t == JsonToken.VALUE_NULL ? null : p.getText());
      }
    }
    return items;
  }

  private static String first(Object v) {
    if (v instanceof List<?> list) {
      return list.isEmpty() || list.get(0) == null ? null : list.get(0).toString();
    }
    return v == null ? null : v.toString();
  }

  private static List<String> all(Object v) {
    if (v == null) {
      return List.of();
    }
    if (v instanceof List<?> list) {
      List<String> out = new ArrayList<>();
      for (Object o : list) {
        out.add(o == null ? null : o.toString());
      }
      return out;
    }
    return List.of(v.toString());
  }

  private static Long number(String s) {
    if (s == null) {
      return null;
    }
    try {
      return Long.parseLong(s.strip()); // bootstrap rooms use all 63 bits; a double would round them
    } catch (NumberFormatException notAnInt) {
      // maybe 12.0
    }
    Double d = decimal(s);
    return d == null || d != Math.rint(d) ? null : d.longValue();
  }

  private static Double decimal(String s) {
    if (s == null) {
      return null;
    }
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException notANumber) {
      return null;
    }
  }
}

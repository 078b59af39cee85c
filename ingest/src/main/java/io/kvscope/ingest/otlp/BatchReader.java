package io.kvscope.ingest.otlp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Streams one OTLP/JSON export line into a {@link Batch}: a trace line ({@code {"resourceSpans":
 * [...]}}, {@code TracesData}) or a log line ({@code {"resourceLogs":[...]}}, {@code LogsData}),
 * as the file exporter writes them. Field names are matched in both spellings the protobuf JSON
 * mapping allows ({@code scopeSpans} and {@code scope_spans}); fields kvscope does not use (links,
 * scopes, flags, severities) are skipped.
 */
final class BatchReader {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final JsonFactory json;

  BatchReader(JsonFactory json) {
    this.json = json;
  }

  /**
   * @throws IOException the line is not valid JSON (a {@code JsonProcessingException})
   * @throws IllegalArgumentException the line is JSON but not an OTLP trace batch
   */
  Batch read(String line) throws IOException {
    List<ResourceSpans> spans = new ArrayList<>();
    List<ResourceLogs> logs = new ArrayList<>();
    try (JsonParser parser = json.createParser(line)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("not a JSON object");
      }
      boolean sawData = false;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = key(parser.currentName());
        JsonToken value = parser.nextToken();
        if (field.equals("resourcespans") && value == JsonToken.START_ARRAY) {
          sawData = true;
          while (parser.nextToken() == JsonToken.START_OBJECT) {
            spans.add(readResourceSpans(parser));
          }
        } else if (field.equals("resourcelogs") && value == JsonToken.START_ARRAY) {
          sawData = true;
          while (parser.nextToken() == JsonToken.START_OBJECT) {
            logs.add(readResourceLogs(parser));
          }
        } else {
          parser.skipChildren();
        }
      }
      if (!atEnd(parser)) {
        throw new IllegalArgumentException("unexpected data after the JSON object");
      }
      if (!sawData) {
        throw new IllegalArgumentException("no resourceSpans or resourceLogs array: not an OTLP export line");
      }
    }
    return new Batch(spans, logs);
  }

  private ResourceLogs readResourceLogs(JsonParser parser) throws IOException {
    Map<String, JsonNode> resource = Map.of();
    List<LogRecord> records = new ArrayList<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = key(parser.currentName());
      JsonToken value = parser.nextToken();
      if (field.equals("resource") && value == JsonToken.START_OBJECT) {
        resource = readResource(parser);
      } else if ((field.equals("scopelogs") || field.equals("instrumentationlibrarylogs")) && value == JsonToken.START_ARRAY) {
        while (parser.nextToken() == JsonToken.START_OBJECT) {
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String inner = key(parser.currentName());
            JsonToken innerValue = parser.nextToken();
            if ((inner.equals("logrecords") || inner.equals("logs")) && innerValue == JsonToken.START_ARRAY) {
              while (parser.nextToken() == JsonToken.START_OBJECT) {
                records.add(readLogRecord(parser));
              }
            } else {
              parser.skipChildren();
            }
          }
        }
      } else {
        parser.skipChildren();
      }
    }
    return new ResourceLogs(resource, records);
  }

  private LogRecord readLogRecord(JsonParser parser) throws IOException {
    String traceId = null;
    String spanId = null;
    String eventName = null;
    Long time = null;
    Long observed = null;
    Map<String, JsonNode> attributes = Map.of();
    JsonNode body = NODES.nullNode();
    String problem = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = key(parser.currentName());
      parser.nextToken();
      try {
        switch (field) {
          case "traceid" -> traceId = TraceIds.normalise(scalar(parser), TraceIds.TRACE_ID_BYTES);
          case "spanid" -> spanId = TraceIds.normalise(scalar(parser), TraceIds.SPAN_ID_BYTES);
          case "eventname" -> eventName = scalar(parser);
          case "timeunixnano" -> time = nanos(parser, "timeUnixNano");
          case "observedtimeunixnano" -> observed = nanos(parser, "observedTimeUnixNano");
          case "attributes" -> attributes = readAttributes(parser);
          case "body" -> body = readAnyValue(parser);
          default -> parser.skipChildren();
        }
      } catch (IllegalArgumentException bad) {
        parser.skipChildren();
        if (problem == null) {
          problem = field + ": " + bad.getMessage();
        }
      }
    }
    return new LogRecord(traceId, spanId, eventName, time != null && time != 0 ? time : observed, attributes, body,
        problem);
  }

  private Map<String, JsonNode> readResource(JsonParser parser) throws IOException {
    Map<String, JsonNode> resource = Map.of();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String inner = key(parser.currentName());
      parser.nextToken();
      if (inner.equals("attributes")) {
        resource = readAttributes(parser);
      } else {
        parser.skipChildren();
      }
    }
    return resource;
  }

  /** True when nothing but whitespace follows the object (garbage after it is not a JSON error). */
  private static boolean atEnd(JsonParser parser) throws IOException {
    try {
      return parser.nextToken() == null;
    } catch (JsonProcessingException trailingGarbage) {
      return false;
    }
  }

  /** Field names compared without case and underscores: {@code scopeSpans} = {@code scope_spans}. */
  private static String key(String name) {
    return name.replace("_", "").toLowerCase(Locale.ROOT);
  }

  private ResourceSpans readResourceSpans(JsonParser parser) throws IOException {
    Map<String, JsonNode> resource = Map.of();
    List<Span> spans = new ArrayList<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = key(parser.currentName());
      JsonToken value = parser.nextToken();
      if (field.equals("resource") && value == JsonToken.START_OBJECT) {
        resource = readResource(parser);
      } else if ((field.equals("scopespans") || field.equals("instrumentationlibraryspans"))
          && value == JsonToken.START_ARRAY) {
        while (parser.nextToken() == JsonToken.START_OBJECT) {
          readScopeSpans(parser, spans);
        }
      } else {
        parser.skipChildren();
      }
    }
    return new ResourceSpans(resource, spans);
  }

  private void readScopeSpans(JsonParser parser, List<Span> spans) throws IOException {
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = key(parser.currentName());
      JsonToken value = parser.nextToken();
      if (field.equals("spans") && value == JsonToken.START_ARRAY) {
        while (parser.nextToken() == JsonToken.START_OBJECT) {
          spans.add(readSpan(parser));
        }
      } else {
        parser.skipChildren();
      }
    }
  }

  private Span readSpan(JsonParser parser) throws IOException {
    String traceId = null;
    String spanId = null;
    String parentSpanId = null;
    String name = null;
    Long start = null;
    Long end = null;
    Map<String, JsonNode> attributes = Map.of();
    List<Span.SpanEvent> events = List.of();
    Span.Status status = Span.Status.UNSET;
    String problem = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = key(parser.currentName());
      parser.nextToken();
      try {
        switch (field) {
          case "traceid" -> traceId = TraceIds.normalise(scalar(parser), TraceIds.TRACE_ID_BYTES);
          case "spanid" -> spanId = TraceIds.normalise(scalar(parser), TraceIds.SPAN_ID_BYTES);
          case "parentspanid" -> parentSpanId = TraceIds.normalise(scalar(parser), TraceIds.SPAN_ID_BYTES);
          case "name" -> name = scalar(parser);
          case "starttimeunixnano" -> start = nanos(parser, "startTimeUnixNano");
          case "endtimeunixnano" -> end = nanos(parser, "endTimeUnixNano");
          case "attributes" -> attributes = readAttributes(parser);
          case "events" -> events = readEvents(parser);
          case "status" -> status = readStatus(parser);
          default -> parser.skipChildren();
        }
      } catch (IllegalArgumentException bad) {
        // A bad id or time spoils this span only; the rest of the batch is still good.
        parser.skipChildren();
        if (problem == null) {
          problem = field + ": " + bad.getMessage();
        }
      }
    }
    return new Span(traceId, spanId, parentSpanId, name, start, end, attributes, events, status, problem);
  }

  private List<Span.SpanEvent> readEvents(JsonParser parser) throws IOException {
    if (parser.currentToken() != JsonToken.START_ARRAY) {
      parser.skipChildren();
      return List.of();
    }
    List<Span.SpanEvent> events = new ArrayList<>();
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      if (parser.currentToken() != JsonToken.START_OBJECT) {
        parser.skipChildren();
        continue;
      }
      String name = null;
      Long time = null;
      Map<String, JsonNode> attributes = Map.of();
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = key(parser.currentName());
        parser.nextToken();
        switch (field) {
          case "name" -> name = scalar(parser);
          case "timeunixnano" -> time = nanos(parser, "timeUnixNano");
          case "attributes" -> attributes = readAttributes(parser);
          default -> parser.skipChildren();
        }
      }
      events.add(new Span.SpanEvent(name, time, attributes));
    }
    return events;
  }

  /**
   * {@code {"code": 2, "message": "..."}}; the code as a number or as {@code STATUS_CODE_ERROR}. The
   * message is what the instrumentation made of the exception ({@code str(error)}).
   */
  private static Span.Status readStatus(JsonParser parser) throws IOException {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return Span.Status.UNSET;
    }
    int code = Span.STATUS_UNSET;
    String message = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = key(parser.currentName());
      JsonToken value = parser.nextToken();
      if (field.equals("code")) {
        if (value == JsonToken.VALUE_NUMBER_INT) {
          code = parser.getIntValue();
        } else if (value == JsonToken.VALUE_STRING) {
          String text = parser.getText().toUpperCase(Locale.ROOT);
          code = text.endsWith("ERROR") || text.equals("2") ? Span.STATUS_ERROR
              : text.endsWith("OK") || text.equals("1") ? Span.STATUS_OK : Span.STATUS_UNSET;
        } else {
          parser.skipChildren();
        }
      } else if (field.equals("message") && value == JsonToken.VALUE_STRING) {
        message = parser.getText();
      } else {
        parser.skipChildren();
      }
    }
    return new Span.Status(code, message);
  }

  /** {@code [{"key": k, "value": AnyValue}, ...]} into an ordered map; later duplicates win. */
  private static Map<String, JsonNode> readAttributes(JsonParser parser) throws IOException {
    if (parser.currentToken() != JsonToken.START_ARRAY) {
      parser.skipChildren();
      return Map.of();
    }
    Map<String, JsonNode> attributes = new LinkedHashMap<>();
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      if (parser.currentToken() != JsonToken.START_OBJECT) {
        parser.skipChildren();
        continue;
      }
      readKeyValue(parser, attributes);
    }
    return attributes;
  }

  private static void readKeyValue(JsonParser parser, Map<String, JsonNode> into) throws IOException {
    String key = null;
    JsonNode value = NODES.nullNode();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = key(parser.currentName());
      parser.nextToken();
      if (field.equals("key")) {
        key = scalar(parser);
      } else if (field.equals("value")) {
        value = readAnyValue(parser);
      } else {
        parser.skipChildren();
      }
    }
    if (key != null) {
      into.put(key, value);
    }
  }

  /** An OTLP AnyValue ({@code {"stringValue": ...}}, {@code {"intValue": "7"}}, ...) as a JSON node. */
  private static JsonNode readAnyValue(JsonParser parser) throws IOException {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return NODES.nullNode();
    }
    JsonNode result = NODES.nullNode();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = key(parser.currentName());
      JsonToken token = parser.nextToken();
      switch (field) {
        case "stringvalue", "bytesvalue" -> result = token == JsonToken.VALUE_NULL
            ? NODES.nullNode() : NODES.textNode(parser.getText());
        case "intvalue" -> result = integer(parser, token);
        case "doublevalue" -> result = token == JsonToken.VALUE_STRING
            ? NODES.textNode(parser.getText()) : NODES.numberNode(parser.getDoubleValue());
        case "boolvalue" -> result = token == JsonToken.VALUE_STRING
            ? NODES.booleanNode(Boolean.parseBoolean(parser.getText())) : NODES.booleanNode(parser.getBooleanValue());
        case "arrayvalue" -> result = readArrayValue(parser);
        case "kvlistvalue" -> result = readKvList(parser);
        default -> parser.skipChildren();
      }
    }
    return result;
  }

  /** int64 arrives as a decimal string in OTLP/JSON; keep unparseable text as text. */
  private static JsonNode integer(JsonParser parser, JsonToken token) throws IOException {
    if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
      return NODES.numberNode(parser.getLongValue());
    }
    if (token == JsonToken.VALUE_STRING) {
      String text = parser.getText().strip();
      try {
        return NODES.numberNode(Long.parseLong(text));
      } catch (NumberFormatException notDecimal) {
        return NODES.textNode(text);
      }
    }
    parser.skipChildren();
    return NODES.nullNode();
  }

  private static JsonNode readArrayValue(JsonParser parser) throws IOException {
    ArrayNode array = NODES.arrayNode();
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return array;
    }
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = key(parser.currentName());
      JsonToken token = parser.nextToken();
      if (field.equals("values") && token == JsonToken.START_ARRAY) {
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          array.add(readAnyValue(parser));
        }
      } else {
        parser.skipChildren();
      }
    }
    return array;
  }

  private static JsonNode readKvList(JsonParser parser) throws IOException {
    ObjectNode object = NODES.objectNode();
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return object;
    }
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = key(parser.currentName());
      JsonToken token = parser.nextToken();
      if (field.equals("values") && token == JsonToken.START_ARRAY) {
        Map<String, JsonNode> entries = new LinkedHashMap<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          if (parser.currentToken() == JsonToken.START_OBJECT) {
            readKeyValue(parser, entries);
          } else {
            parser.skipChildren();
          }
        }
        object.setAll(entries);
      } else {
        parser.skipChildren();
      }
    }
    return object;
  }

  private static String scalar(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    if (token.isScalarValue() && token != JsonToken.VALUE_NULL) {
      return parser.getText();
    }
    parser.skipChildren();
    return null;
  }

  /** Epoch nanoseconds: an int64 as a decimal string, or a JSON number. */
  private static Long nanos(JsonParser parser, String field) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NUMBER_INT) {
      return parser.getLongValue();
    }
    if (token == JsonToken.VALUE_STRING) {
      String text = parser.getText().strip();
      if (text.isEmpty()) {
        return null;
      }
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(field + " is not an integer number of nanoseconds");
      }
    }
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    parser.skipChildren();
    throw new IllegalArgumentException(field + " is not an integer number of nanoseconds");
  }
}

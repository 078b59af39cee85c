package io.kvscope.ingest.otlp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * Builds OTLP/JSON export lines the way the OpenTelemetry file exporter writes them: hex ids,
 * int64 values and nanosecond times as decimal strings, attributes as key/AnyValue pairs.
 */
final class Otlp {

  static final ObjectMapper JSON = new ObjectMapper();

  private Otlp() {}

  /** One attribute; Long and Integer become {@code intValue} strings as in OTLP/JSON. */
  static ObjectNode attr(String key, Object value) {
    ObjectNode kv = JSON.createObjectNode();
    kv.put("key", key);
    kv.set("value", anyValue(value));
    return kv;
  }

  static ObjectNode anyValue(Object value) {
    ObjectNode any = JSON.createObjectNode();
    switch (value) {
      case String s -> any.put("stringValue", s);
      case Long l -> any.put("intValue", Long.toString(l));
      case Integer i -> any.put("intValue", Integer.toString(i));
      case Double d -> any.put("doubleValue", d);
      case Boolean b -> any.put("boolValue", b);
      case List<?> list -> {
        ArrayNode values = any.putObject("arrayValue").putArray("values");
        list.forEach(v -> values.add(anyValue(v)));
      }
      case Map<?, ?> map -> {
        ArrayNode values = any.putObject("kvlistValue").putArray("values");
        map.forEach((k, v) -> values.add(attr((String) k, v)));
      }
      default -> throw new IllegalArgumentException("no AnyValue for " + value.getClass());
    }
    return any;
  }

  static final class SpanBuilder {
    final ObjectNode span = JSON.createObjectNode();
    private final ArrayNode attributes;
    private ArrayNode events;

    SpanBuilder(String traceId, String spanId, String parentSpanId, String name, long startNanos, long endNanos) {
      span.put("traceId", traceId);
      span.put("spanId", spanId);
      if (parentSpanId != null) {
        span.put("parentSpanId", parentSpanId);
      }
      span.put("flags", 256);
      span.put("name", name);
      span.put("kind", 3);
      span.put("startTimeUnixNano", Long.toString(startNanos));
      span.put("endTimeUnixNano", Long.toString(endNanos));
      attributes = span.putArray("attributes");
      span.putObject("status");
    }

    SpanBuilder attr(String key, Object value) {
      attributes.add(Otlp.attr(key, value));
      return this;
    }

    SpanBuilder event(String name, long timeNanos, Map<String, Object> attrs) {
      if (events == null) {
        events = span.putArray("events");
      }
      ObjectNode event = events.addObject();
      event.put("timeUnixNano", Long.toString(timeNanos));
      event.put("name", name);
      ArrayNode list = event.putArray("attributes");
      attrs.forEach((k, v) -> list.add(Otlp.attr(k, v)));
      return this;
    }

    SpanBuilder status(int code) {
      span.putObject("status").put("code", code);
      return this;
    }

    SpanBuilder status(String code) {
      span.putObject("status").put("code", code).put("message", "boom");
      return this;
    }

    ObjectNode build() {
      return span;
    }
  }

  static SpanBuilder span(String traceId, String spanId, String parentSpanId, String name, long startNanos,
      long endNanos) {
    return new SpanBuilder(traceId, spanId, parentSpanId, name, startNanos, endNanos);
  }

  /** One export line holding one resource's spans. */
  static String line(Map<String, Object> resource, List<ObjectNode> spans) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode resourceSpans = root.putArray("resourceSpans").addObject();
    ArrayNode resourceAttributes = resourceSpans.putObject("resource").putArray("attributes");
    resource.forEach((k, v) -> resourceAttributes.add(attr(k, v)));
    ObjectNode scopeSpans = resourceSpans.putArray("scopeSpans").addObject();
    scopeSpans.putObject("scope").put("name", "opentelemetry.instrumentation.openai_v2").put("version", "2.1b0");
    ArrayNode list = scopeSpans.putArray("spans");
    spans.forEach(list::add);
    scopeSpans.put("schemaUrl", "https://opentelemetry.io/schemas/1.28.0");
    resourceSpans.put("schemaUrl", "https://opentelemetry.io/schemas/1.28.0");
    try {
      return JSON.writeValueAsString(root);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}

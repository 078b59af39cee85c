package io.kvscope.ingest.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * One span as read from a batch, attribute values as JSON nodes (strings, numbers, booleans,
 * arrays, objects for key-value lists). Ids are lowercase hex; times are epoch nanoseconds.
 *
 * @param status OTLP status: code 0 unset, 1 ok, 2 error, and its message
 * @param problem why this span cannot be used (a malformed id or time), or {@code null}
 */
record Span(
    String traceId,
    String spanId,
    String parentSpanId,
    String name,
    Long startNanos,
    Long endNanos,
    Map<String, JsonNode> attributes,
    List<SpanEvent> events,
    Status status,
    String problem) {

  static final int STATUS_UNSET = 0;
  static final int STATUS_OK = 1;
  static final int STATUS_ERROR = 2;

  int statusCode() {
    return status.code();
  }

  JsonNode attribute(String key) {
    return attributes.get(key);
  }

  boolean has(String key) {
    JsonNode value = attributes.get(key);
    return value != null && !value.isNull();
  }

  /** A span event ({@code gen_ai.user.message}, {@code gen_ai.choice}, {@code exception}, ...). */
  record SpanEvent(String name, Long timeNanos, Map<String, JsonNode> attributes) {}

  /** The span's status: its code and the instrumentation's description of an error. */
  record Status(int code, String message) {
    static final Status UNSET = new Status(STATUS_UNSET, null);
  }
}

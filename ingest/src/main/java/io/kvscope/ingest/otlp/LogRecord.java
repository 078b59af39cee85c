package io.kvscope.ingest.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * One OTLP log record ({@code resourceLogs[].scopeLogs[].logRecords[]}), attribute values as JSON
 * nodes. GenAI events are log records named by {@code eventName} (the {@code event.name} attribute
 * in SDKs older than OTLP 1.5) and tied to their span by {@code traceId}/{@code spanId}.
 *
 * @param timeNanos when the event happened (epoch ns), else when it was observed; null if neither
 * @param problem why this record cannot be used (a malformed id or time), or {@code null}
 */
record LogRecord(
    String traceId,
    String spanId,
    String eventName,
    Long timeNanos,
    Map<String, JsonNode> attributes,
    JsonNode body,
    String problem) {

  /** The event name from the field, else from the older {@code event.name} attribute. */
  String event() {
    if (eventName != null && !eventName.isBlank()) {
      return eventName;
    }
    JsonNode attribute = attributes.get("event.name");
    return attribute == null || !attribute.isTextual() ? null : attribute.textValue();
  }
}

package io.kvscope.ingest.otlp;

import static io.kvscope.ingest.otlp.AttributeValues.text;
import static io.kvscope.ingest.otlp.AttributeValues.whole;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeRole;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * SGLang request-stage spans ({@code --enable-trace}) as {@link EngineEvent}s of kind
 * {@link EngineEvent.Kind#TIME_STATS}. SGLang puts {@code rid} on the request's root span and
 * {@code bootstrap_room} on the span above it; stage spans ({@code prefill_forward},
 * {@code decode_transferred}, ...) sit below, so a stage span without its own attributes takes
 * them from the nearest ancestor in the same batch. The role comes from the span name's prefix.
 */
final class EngineSpans {

  private static final int MAX_ANCESTORS = 16;

  /** One batch's spans by id, to find a stage span's request through its ancestors. */
  private final Map<String, Span> byId = new HashMap<>();

  EngineSpans(List<ResourceSpans> batch) {
    for (ResourceSpans resourceSpans : batch) {
      for (Span span : resourceSpans.spans()) {
        if (span.spanId() != null) {
          byId.putIfAbsent(span.spanId(), span);
        }
      }
    }
  }

  /** A span that says which engine request it belongs to and is a request or a stage of one. */
  boolean isEngineSpan(Span span) {
    if (span.has("rid")) {
      return true;
    }
    return roleOf(span.name()) != NodeRole.UNKNOWN && inherited(span, "rid") != null;
  }

  /**
   * @param nodeOverride the user's {@code --node}, or {@code null}
   * @param fallbackNode used when neither the resource nor the spans name a host (the file stem)
   * @throws IllegalArgumentException when the span has no time or a malformed attribute
   */
  EngineEvent toEvent(Span span, Map<String, JsonNode> resource, String nodeOverride, String fallbackNode,
      String sourceFile, long sourceLine) {
    Long startMs = GenAiSpans.millis(span.startNanos());
    Long endMs = GenAiSpans.millis(span.endNanos());
    if (startMs == null && endMs == null) {
      throw new IllegalArgumentException("engine span " + span.spanId() + " has no start or end time");
    }
    Double durationMs = span.startNanos() != null && span.endNanos() != null && span.startNanos() != 0
        ? (span.endNanos() - span.startNanos()) / 1e6 : null;
    String name = span.name() == null ? "" : span.name();
    boolean transfer = name.toLowerCase(Locale.ROOT).contains("transfer");
    return new EngineEvent(
        EngineEvent.Kind.TIME_STATS,
        node(span, resource, nodeOverride, fallbackNode),
        roleOf(name),
        text(inherited(span, "rid")),
        bootstrapRoom(inherited(span, "bootstrap_room")),
        startMs != null ? startMs : endMs,
        firstWhole(span, "input_len", "input_length", "prompt_tokens"),
        null,
        null,
        firstWhole(span, "cached_input_len", "cached_tokens"),
        firstWhole(span, "output_len", "completion_tokens"),
        null,
        transfer ? durationMs : null,
        null,
        text(span.attribute("finish_reason")),
        durationMs == null ? "span " + name : String.format(Locale.ROOT, "span %s, %.3f ms", name, durationMs),
        sourceFile,
        sourceLine);
  }

  /** {@code prefill_forward} and {@code prefill Req ...} are prefill; likewise decode. */
  static NodeRole roleOf(String spanName) {
    if (spanName == null) {
      return NodeRole.UNKNOWN;
    }
    String name = spanName.strip().toLowerCase(Locale.ROOT);
    if (name.startsWith("prefill")) {
      return NodeRole.PREFILL;
    }
    if (name.startsWith("decode")) {
      return NodeRole.DECODE;
    }
    return NodeRole.UNKNOWN;
  }

  /** The attribute on the span or its nearest ancestor in this batch that has it. */
  private JsonNode inherited(Span span, String key) {
    Span current = span;
    for (int depth = 0; current != null && depth <= MAX_ANCESTORS; depth++) {
      JsonNode value = current.attribute(key);
      if (value != null && !value.isNull()) {
        return value;
      }
      current = current.parentSpanId() == null ? null : byId.get(current.parentSpanId());
    }
    return null;
  }

  /**
   * The user's override, else the resource's host ({@code host.name}, {@code service.instance.id}),
   * else SGLang's {@code host_id} on the thread span, else the service name, else the file stem.
   */
  private String node(Span span, Map<String, JsonNode> resource, String nodeOverride, String fallbackNode) {
    if (nodeOverride != null && !nodeOverride.isBlank()) {
      return nodeOverride;
    }
    for (String key : List.of("host.name", "service.instance.id")) {
      String value = text(resource.get(key));
      if (value != null) {
        return value;
      }
    }
    String hostId = text(inherited(span, "host_id"));
    if (hostId != null) {
      return hostId;
    }
    String service = text(resource.get("service.name"));
    return service != null ? service : fallbackNode;
  }

  /** SGLang writes the room as a hex string ({@code 0x1f}); others as a number or decimal text. */
  private static Long bootstrapRoom(JsonNode value) {
    String text = text(value);
    if (text == null) {
      return null;
    }
    String t = text.strip();
    try {
      if (t.startsWith("0x") || t.startsWith("0X")) {
        return Long.parseUnsignedLong(t.substring(2), 16);
      }
      return value.isNumber() ? Long.valueOf(value.longValue()) : Long.valueOf(Long.parseLong(t));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bootstrap_room is not a number");
    }
  }

  private static Long firstWhole(Span span, String... keys) {
    for (String key : keys) {
      Long value = whole(span.attribute(key), key);
      if (value != null) {
        return value;
      }
    }
    return null;
  }
}

package io.kvscope.ingest.otlp;

import static io.kvscope.ingest.otlp.AttributeValues.decimal;
import static io.kvscope.ingest.otlp.AttributeValues.firstText;
import static io.kvscope.ingest.otlp.AttributeValues.text;
import static io.kvscope.ingest.otlp.AttributeValues.whole;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.ingest.EngineRids;
import io.kvscope.ingest.json.MessageText;
import io.kvscope.ingest.record.RequestRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Model-call spans under the GenAI semantic conventions, as {@link RequestRecord}s. Both
 * generations of attribute names are read: {@code gen_ai.usage.input_tokens} and the older
 * {@code gen_ai.usage.prompt_tokens}; content in {@code gen_ai.input.messages} /
 * {@code gen_ai.output.messages}, the older {@code gen_ai.prompt} / {@code gen_ai.completion}
 * (whole or indexed {@code gen_ai.prompt.0.content}), or span events ({@code gen_ai.user.message},
 * {@code gen_ai.choice}, {@code gen_ai.content.prompt}).
 *
 * <p>The request id is {@code gen_ai.response.id}; a span without one (the call failed before a
 * response) is keyed by its span id, so that it is still counted and searchable.
 */
final class GenAiSpans {

  /** Operations that are one model call; agent, tool and embedding spans are not requests. */
  private static final Set<String> CALL_OPERATIONS = Set.of("chat", "text_completion", "generate_content", "completion");

  private static final List<String> PROMPT_EVENTS = List.of(
      "gen_ai.system.message", "gen_ai.user.message", "gen_ai.assistant.message", "gen_ai.tool.message",
      "gen_ai.content.prompt");
  private static final List<String> RESPONSE_EVENTS = List.of("gen_ai.choice", "gen_ai.content.completion");

  private static final Pattern INDEXED_CONTENT = Pattern.compile("gen_ai\\.(prompt|completion)\\.(\\d+)\\.content");

  private final ObjectMapper mapper;

  GenAiSpans(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** A span that records one model call: it names a model, a response or token usage. */
  static boolean isModelCall(Span span) {
    boolean genAi = span.has("gen_ai.request.model") || span.has("gen_ai.response.id")
        || span.attributes().keySet().stream().anyMatch(k -> k.startsWith("gen_ai.usage."));
    if (!genAi) {
      return false;
    }
    String operation = text(span.attribute("gen_ai.operation.name"));
    return operation == null || CALL_OPERATIONS.contains(operation.toLowerCase(Locale.ROOT));
  }

  /**
   * @throws IllegalArgumentException when an attribute has the wrong type or the span has no id
   */
  RequestRecord.Builder toRecord(Span span, Map<String, JsonNode> resource, List<String> tenantKeys) {
    String responseId = text(span.attribute("gen_ai.response.id"));
    String requestId = responseId != null ? responseId : span.spanId();
    if (requestId == null) {
      throw new IllegalArgumentException("GenAI span has neither gen_ai.response.id nor a span id");
    }
    String model = first(text(span.attribute("gen_ai.request.model")), text(span.attribute("gen_ai.response.model")));
    Long start = millis(span.startNanos());
    Long outputTokens = firstWhole(span, "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens");
    String prompt = prompt(span);
    String response = response(span);
    String finishReason = first(firstText(span.attribute("gen_ai.response.finish_reasons")), choiceFinishReason(span));
    return RequestRecord.builder(requestId)
        .engineRid(EngineRids.fromResponseId(responseId))
        .tenant(tenant(span, resource, tenantKeys))
        .model(model)
        .deployment(model)
        .startTime(start)
        .firstTokenTime(firstToken(span, start))
        .endTime(millis(span.endNanos()))
        .statusCode(status(span, responseId != null || finishReason != null || outputTokens != null || response != null))
        .finishReason(finishReason)
        .promptTokens(firstWhole(span, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"))
        .completionTokens(outputTokens)
        .cachedTokens(firstWhole(span, "gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_read_input_tokens"))
        .promptText(prompt)
        .promptChars(prompt == null ? null : (long) prompt.length())
        .responseText(response);
  }

  /** First configured key present on the span, else on its resource (key by key). */
  static String tenant(Span span, Map<String, JsonNode> resource, List<String> tenantKeys) {
    for (String key : tenantKeys) {
      String value = first(text(span.attribute(key)), text(resource.get(key)));
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  /**
   * The HTTP status when the span has one; else the span status (error is 500). Instrumentations
   * leave the status unset on success, so an unset span that carries a response counts as 200.
   */
  private static Integer status(Span span, boolean hasResponse) {
    Long http = whole(span.attribute("http.response.status_code"), "http.response.status_code");
    if (http == null) {
      http = whole(span.attribute("http.status_code"), "http.status_code");
    }
    if (http != null && http >= 100 && http <= 599) {
      return http.intValue();
    }
    if (span.statusCode() == Span.STATUS_ERROR || span.has("error.type")) {
      return 500;
    }
    if (span.statusCode() == Span.STATUS_OK || hasResponse) {
      return 200;
    }
    return null;
  }

  /** {@code gen_ai.server.time_to_first_token} (seconds) after the span start, when recorded. */
  private static Long firstToken(Span span, Long start) {
    Double seconds = decimal(span.attribute("gen_ai.server.time_to_first_token"));
    return start == null || seconds == null ? null : start + Math.round(seconds * 1000.0);
  }

  private String prompt(Span span) {
    String current = MessageText.join(
        json(span.attribute("gen_ai.system_instructions")), json(span.attribute("gen_ai.input.messages")));
    if (current != null) {
      return current;
    }
    String older = json(span.attribute("gen_ai.prompt"));
    if (older != null) {
      return older;
    }
    String indexed = indexed(span, "prompt");
    return indexed != null ? indexed : events(span, PROMPT_EVENTS);
  }

  private String response(Span span) {
    String current = json(span.attribute("gen_ai.output.messages"));
    if (current != null) {
      return current;
    }
    String older = json(span.attribute("gen_ai.completion"));
    if (older != null) {
      return older;
    }
    String indexed = indexed(span, "completion");
    return indexed != null ? indexed : events(span, RESPONSE_EVENTS);
  }

  /** OpenLLMetry's flattened {@code gen_ai.prompt.N.content}, in index order. */
  private static String indexed(Span span, String side) {
    TreeMap<Integer, String> parts = new TreeMap<>();
    for (Map.Entry<String, JsonNode> attribute : span.attributes().entrySet()) {
      Matcher m = INDEXED_CONTENT.matcher(attribute.getKey());
      if (m.matches() && m.group(1).equals(side) && m.group(2).length() < 9) {
        String text = text(attribute.getValue());
        if (text != null) {
          parts.put(Integer.parseInt(m.group(2)), text);
        }
      }
    }
    return parts.isEmpty() ? null : String.join("\n", parts.values());
  }

  /** The text of the named events, in the order they were recorded. */
  private String events(Span span, List<String> names) {
    List<String> texts = new ArrayList<>();
    for (Span.SpanEvent event : span.events()) {
      if (event.name() == null || !names.contains(event.name())) {
        continue;
      }
      Map<String, JsonNode> attributes = event.attributes();
      String text = first(json(attributes.get("gen_ai.event.content")), json(attributes.get("gen_ai.prompt")),
          json(attributes.get("gen_ai.completion")), json(attributes.get("message")),
          plain(attributes.get("content")), json(attributes.get("body")));
      if (text != null) {
        texts.add(text);
      }
    }
    return texts.isEmpty() ? null : String.join("\n", texts);
  }

  private static String choiceFinishReason(Span span) {
    for (Span.SpanEvent event : span.events()) {
      if ("gen_ai.choice".equals(event.name())) {
        String reason = text(event.attributes().get("finish_reason"));
        if (reason != null) {
          return reason;
        }
      }
    }
    return null;
  }

  /**
   * The text of a value that is either structured already or JSON in a string (as the
   * conventions serialise messages); a string that is not JSON messages is taken as the text.
   */
  private String json(JsonNode value) {
    if (value == null || value.isNull()) {
      return null;
    }
    if (value.isTextual()) {
      String raw = value.textValue();
      String trimmed = raw.strip();
      if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
        try {
          String text = MessageText.of(mapper.readTree(trimmed));
          if (text != null) {
            return text;
          }
        } catch (JsonProcessingException notJson) {
          // plain text that happens to start with a bracket
        }
      }
      return raw.isEmpty() ? null : raw;
    }
    return MessageText.of(value);
  }

  private static String plain(JsonNode value) {
    if (value != null && value.isTextual()) {
      return value.textValue().isEmpty() ? null : value.textValue();
    }
    return value == null ? null : MessageText.of(value);
  }

  private static Long firstWhole(Span span, String key, String olderKey) {
    Long value = whole(span.attribute(key), key);
    return value != null ? value : whole(span.attribute(olderKey), olderKey);
  }

  /** Epoch nanoseconds to milliseconds; 0 is OTLP's "not set". */
  static Long millis(Long nanos) {
    return nanos == null || nanos == 0 ? null : Math.floorDiv(nanos, 1_000_000L);
  }

  @SafeVarargs
  private static <T> T first(T... values) {
    for (T value : values) {
      if (value != null) {
        return value;
      }
    }
    return null;
  }
}

package io.kvscope.ingest.otlp;

import static io.kvscope.ingest.otlp.AttributeValues.decimal;
import static io.kvscope.ingest.otlp.AttributeValues.firstText;
import static io.kvscope.ingest.otlp.AttributeValues.text;
import static io.kvscope.ingest.otlp.AttributeValues.whole;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.ingest.EngineRids;
import io.kvscope.ingest.ErrorQuote;
import io.kvscope.ingest.json.MessageText;
import io.kvscope.ingest.record.RecordOrigin;
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
 * Model calls under the GenAI semantic conventions, as {@link RequestRecord}s: client spans, and
 * the {@code gen_ai.client.inference.operation.details} log event that carries the same attributes
 * (content in structured form) apart from the trace. Both generations of names are read:
 * {@code gen_ai.usage.input_tokens} and the older {@code gen_ai.usage.prompt_tokens}; content in
 * {@code gen_ai.input.messages} / {@code gen_ai.output.messages}, the older {@code gen_ai.prompt} /
 * {@code gen_ai.completion}, OpenLLMetry's flattened {@code gen_ai.prompt.N.*} /
 * {@code gen_ai.completion.N.*} (content, tool-call arguments, finish reason), or span events
 * ({@code gen_ai.user.message}, {@code gen_ai.choice}, {@code gen_ai.content.prompt}). Where each
 * name comes from is in {@code docs/formats.md}.
 *
 * <p>The request id is {@code gen_ai.response.id}; a call without one (it failed before a response)
 * is keyed by its span id, which its log event shares, so span and event are one request. A failed
 * call's HTTP status comes from the span or its HTTP child span, else from the error text
 * ({@code Error code: 400 - ...}) or the error class ({@code BadRequestError}); a failure nothing
 * names a status for has none, rather than an invented 500.
 */
final class GenAiSpans {

  /** Operations that are one model call; agent, tool and embedding spans are not requests. */
  private static final Set<String> CALL_OPERATIONS = Set.of("chat", "text_completion", "generate_content", "completion");

  /** The log event that carries a whole call's attributes, content included. */
  static final String DETAILS_EVENT = "gen_ai.client.inference.operation.details";

  private static final List<String> PROMPT_EVENTS = List.of(
      "gen_ai.system.message", "gen_ai.user.message", "gen_ai.assistant.message", "gen_ai.tool.message",
      "gen_ai.content.prompt");
  private static final List<String> RESPONSE_EVENTS = List.of("gen_ai.choice", "gen_ai.content.completion");

  /** OpenLLMetry's flattened messages: {@code gen_ai.prompt.0.content}, {@code gen_ai.completion.1.tool_calls.0.arguments}. */
  private static final Pattern INDEXED = Pattern.compile(
      "gen_ai\\.(prompt|completion)\\.(\\d{1,8})\\.(content|finish_reason|tool_calls\\.(\\d{1,8})\\.arguments)");

  /**
   * openai-python's exception classes for HTTP errors ({@code openai/_exceptions.py}), which
   * OpenAI-client instrumentations put in {@code error.type}, and LiteLLM's equivalents.
   */
  private static final Map<String, Integer> ERROR_CLASS_STATUS = Map.ofEntries(
      Map.entry("BadRequestError", 400), Map.entry("ContextWindowExceededError", 400),
      Map.entry("AuthenticationError", 401), Map.entry("PermissionDeniedError", 403),
      Map.entry("NotFoundError", 404), Map.entry("ConflictError", 409),
      Map.entry("UnprocessableEntityError", 422), Map.entry("RateLimitError", 429),
      Map.entry("InternalServerError", 500), Map.entry("ServiceUnavailableError", 503));

  private final ObjectMapper mapper;

  GenAiSpans(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** A span that records one model call: it names a model, a response or token usage. */
  static boolean isModelCall(Span span) {
    return isModelCall(span.attributes());
  }

  /** A log record that is a model call's details event. */
  static boolean isModelCall(LogRecord record) {
    return DETAILS_EVENT.equals(record.event()) && isModelCall(record.attributes());
  }

  private static boolean isModelCall(Map<String, JsonNode> attributes) {
    boolean genAi = present(attributes, "gen_ai.request.model") || present(attributes, "gen_ai.response.id")
        || attributes.keySet().stream().anyMatch(k -> k.startsWith("gen_ai.usage."));
    if (!genAi) {
      return false;
    }
    String operation = text(attributes.get("gen_ai.operation.name"));
    return operation == null || CALL_OPERATIONS.contains(operation.toLowerCase(Locale.ROOT));
  }

  private static boolean present(Map<String, JsonNode> attributes, String key) {
    JsonNode value = attributes.get(key);
    return value != null && !value.isNull();
  }

  /**
   * @param childHttpStatus the {@code http.response.status_code} of an HTTP span below this one in
   *     the same batch (the request the client library sent), or null
   * @throws IllegalArgumentException when an attribute has the wrong type or the span has no id
   */
  RequestRecord.Builder toRecord(Span span, Map<String, JsonNode> resource, List<String> tenantKeys,
      Integer childHttpStatus) {
    Call call = new Call(span.traceId(), span.spanId(), span.attributes(), span.events(), span.status(),
        millis(span.startNanos()), millis(span.endNanos()));
    return toRecord(call, resource, tenantKeys, childHttpStatus);
  }

  /** The details event of a call: no duration of its own, its time is the call's end. */
  RequestRecord.Builder toRecord(LogRecord record, Map<String, JsonNode> resource, List<String> tenantKeys) {
    Call call = new Call(record.traceId(), record.spanId(), record.attributes(), List.of(), Span.Status.UNSET,
        null, millis(record.timeNanos()));
    return toRecord(call, resource, tenantKeys, null);
  }

  /** What a span and a details event have in common. */
  private record Call(String traceId, String spanId, Map<String, JsonNode> attributes, List<Span.SpanEvent> events,
      Span.Status status, Long start, Long end) {

    JsonNode attribute(String key) {
      return attributes.get(key);
    }

    boolean has(String key) {
      return present(attributes, key);
    }
  }

  private RequestRecord.Builder toRecord(Call call, Map<String, JsonNode> resource, List<String> tenantKeys,
      Integer childHttpStatus) {
    String responseId = text(call.attribute("gen_ai.response.id"));
    String requestId = responseId != null ? responseId : call.spanId();
    if (requestId == null) {
      throw new IllegalArgumentException("GenAI call has neither gen_ai.response.id nor a span id");
    }
    String model = first(text(call.attribute("gen_ai.request.model")), text(call.attribute("gen_ai.response.model")));
    Long outputTokens = firstWhole(call, "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens");
    String prompt = prompt(call);
    String response = response(call);
    String finishReason = first(firstText(call.attribute("gen_ai.response.finish_reasons")),
        text(call.attribute("gen_ai.completion.0.finish_reason")), choiceFinishReason(call));
    ErrorQuote quote = ErrorQuote.parse(errorText(call));
    String rid = EngineRids.fromResponseId(responseId);
    return RequestRecord.builder(requestId)
        .engineRid(rid != null ? rid : quote.rid())
        .tenant(tenant(call.attributes(), resource, tenantKeys))
        .model(model)
        .deployment(model)
        .startTime(call.start())
        .firstTokenTime(firstToken(call))
        .endTime(call.end())
        .statusCode(status(call, childHttpStatus, quote,
            responseId != null || finishReason != null || outputTokens != null || response != null))
        .finishReason(finishReason)
        .promptTokens(firstWhole(call, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"))
        .completionTokens(outputTokens)
        .cachedTokens(firstWhole(call, "gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_read_input_tokens"))
        .promptText(prompt)
        .promptChars(prompt == null ? null : (long) prompt.length())
        .responseText(response)
        .origin(RecordOrigin.TRACE)
        .aliases(aliases(call, requestId))
        .quotedPromptTokens(quote.promptTokens())
        .quotedLimitTokens(quote.limitTokens());
  }

  /** The call's trace and span ids, so that a search by either finds the request. */
  private static List<String> aliases(Call call, String requestId) {
    List<String> aliases = new ArrayList<>(2);
    if (call.traceId() != null) {
      aliases.add("trace_id:" + call.traceId());
    }
    if (call.spanId() != null && !call.spanId().equals(requestId)) {
      aliases.add("span_id:" + call.spanId());
    }
    return aliases;
  }

  /** First configured key present on the call, else on its resource (key by key). */
  static String tenant(Map<String, JsonNode> attributes, Map<String, JsonNode> resource, List<String> tenantKeys) {
    for (String key : tenantKeys) {
      String value = first(text(attributes.get(key)), text(resource.get(key)));
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  /**
   * The HTTP status: the span's own, else its HTTP child span's, else the one the error text or
   * {@code error.type} names. A call that failed without any of them has no status (not a guessed
   * 500). Instrumentations leave the status unset on success, so an unset call that carries a
   * response counts as 200.
   */
  private static Integer status(Call call, Integer childHttpStatus, ErrorQuote quote, boolean hasResponse) {
    Long http = whole(call.attribute("http.response.status_code"), "http.response.status_code");
    if (http == null) {
      http = whole(call.attribute("http.status_code"), "http.status_code");
    }
    if (http != null && http >= 100 && http <= 599) {
      return http.intValue();
    }
    if (childHttpStatus != null) {
      return childHttpStatus;
    }
    boolean failed = call.status().code() == Span.STATUS_ERROR || call.has("error.type");
    if (failed) {
      if (quote.httpStatus() != null) {
        return quote.httpStatus();
      }
      return errorTypeStatus(text(call.attribute("error.type")));
    }
    if (call.status().code() == Span.STATUS_OK || hasResponse) {
      return 200;
    }
    return null;
  }

  /** {@code error.type} is a status code ({@code "400"}) or an exception class ({@code BadRequestError}). */
  static Integer errorTypeStatus(String errorType) {
    if (errorType == null) {
      return null;
    }
    String type = errorType.strip();
    if (type.length() == 3 && type.chars().allMatch(Character::isDigit)) {
      int code = Integer.parseInt(type);
      return code >= 100 && code <= 599 ? code : null;
    }
    int dot = type.lastIndexOf('.');
    return ERROR_CLASS_STATUS.get(dot >= 0 ? type.substring(dot + 1) : type);
  }

  /** The error's own words: the status description, else an {@code exception} event's message. */
  private static String errorText(Call call) {
    String message = call.status().message();
    if (message != null && !message.isBlank()) {
      return message;
    }
    for (Span.SpanEvent event : call.events()) {
      if ("exception".equals(event.name())) {
        String text = text(event.attributes().get("exception.message"));
        if (text != null) {
          return text;
        }
      }
    }
    return null;
  }

  /**
   * {@code gen_ai.response.time_to_first_chunk} (seconds from request issuance) after the call's
   * start, when recorded (streaming calls).
   */
  private static Long firstToken(Call call) {
    Double seconds = decimal(call.attribute("gen_ai.response.time_to_first_chunk"));
    if (call.start() == null || seconds == null || !Double.isFinite(seconds) || seconds < 0 || seconds > 1e7) {
      return null;
    }
    return call.start() + Math.round(seconds * 1000.0);
  }

  private String prompt(Call call) {
    String current = MessageText.join(
        json(call.attribute("gen_ai.system_instructions")), json(call.attribute("gen_ai.input.messages")));
    if (current != null) {
      return current;
    }
    String older = json(call.attribute("gen_ai.prompt"));
    if (older != null) {
      return older;
    }
    String indexed = indexed(call, "prompt");
    return indexed != null ? indexed : events(call, PROMPT_EVENTS);
  }

  private String response(Call call) {
    String current = json(call.attribute("gen_ai.output.messages"));
    if (current != null) {
      return current;
    }
    String older = json(call.attribute("gen_ai.completion"));
    if (older != null) {
      return older;
    }
    String indexed = indexed(call, "completion");
    return indexed != null ? indexed : events(call, RESPONSE_EVENTS);
  }

  /**
   * OpenLLMetry's flattened messages in index order, each as its content and then its tool calls'
   * arguments (the order {@link MessageText} renders a message in).
   */
  private static String indexed(Call call, String side) {
    TreeMap<Integer, TreeMap<Integer, String>> messages = new TreeMap<>();
    for (Map.Entry<String, JsonNode> attribute : call.attributes().entrySet()) {
      Matcher m = INDEXED.matcher(attribute.getKey());
      if (!m.matches() || !m.group(1).equals(side) || m.group(3).equals("finish_reason")) {
        continue;
      }
      String text = m.group(4) == null ? text(attribute.getValue()) : MessageText.arguments(attribute.getValue());
      if (text != null) {
        // Slot -1 is the content, slots 0.. the tool calls.
        int slot = m.group(4) == null ? -1 : Integer.parseInt(m.group(4));
        messages.computeIfAbsent(Integer.parseInt(m.group(2)), i -> new TreeMap<>()).put(slot, text);
      }
    }
    if (messages.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    messages.values().forEach(message -> parts.addAll(message.values()));
    return String.join(String.valueOf(MessageText.SEPARATOR), parts);
  }

  /** The text of the named events, in the order they were recorded. */
  private String events(Call call, List<String> names) {
    List<String> texts = new ArrayList<>();
    for (Span.SpanEvent event : call.events()) {
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
    return texts.isEmpty() ? null : String.join(String.valueOf(MessageText.SEPARATOR), texts);
  }

  private static String choiceFinishReason(Call call) {
    for (Span.SpanEvent event : call.events()) {
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

  private static Long firstWhole(Call call, String key, String olderKey) {
    Long value = whole(call.attribute(key), key);
    return value != null ? value : whole(call.attribute(olderKey), olderKey);
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

package io.kvscope.ingest.litellm;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.kvscope.ingest.EngineRids;
import io.kvscope.ingest.ErrorQuote;
import io.kvscope.ingest.json.MessageText;
import io.kvscope.ingest.json.Times;
import io.kvscope.ingest.record.RecordOrigin;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Streams one {@code StandardLoggingPayload} into a {@link RequestRecord}, reading only the fields
 * kvscope uses and skipping the rest unparsed (model maps, hidden params, cost tables). The fields
 * and how LiteLLM fills them ({@code litellm_logging.py}, {@code get_standard_logging_object_payload})
 * are listed in {@code docs/formats.md}; the traps:
 *
 * <ul>
 *   <li>a failure's {@code id} is the LiteLLM call id (there is no response), its usage is zero
 *       and its {@code completionStartTime} is its {@code endTime}: none of these is a measurement;
 *   <li>the engine's own words about a failure (the over-length rejection and its limit, the only
 *       record of a tokenizer-side rejection) are only in {@code error_information.error_message};
 *   <li>tool calls carry their arguments as text that may hold another tenant's data;
 *   <li>with {@code turn_off_message_logging} the content is the placeholder
 *       {@code redacted-by-litellm}, which is no content at all.
 * </ul>
 *
 * One reader per ingestor; every call keeps its state on the stack.
 */
final class PayloadReader {

  private static final JsonFactory COMPACT = new JsonFactory();

  /**
   * Fields a logged call has and a request body has not: LiteLLM writes the payload after the call
   * ({@code status}, times, the {@code response}, counts); a body has the model and the messages.
   */
  private static final java.util.Set<String> LOGGED_CALL_FIELDS = java.util.Set.of("status", "startTime", "endTime",
      "completionStartTime", "response", "call_type", "error_information", "error_str", "prompt_tokens",
      "completion_tokens", "model_group", "response_cost", "hidden_params");

  /**
   * Why a JSON object with messages and none of them is not read: LiteLLM's {@code --detailed_debug} prints every
   * request it receives as {@code Request received by LiteLLM:} and the body, indented like a payload.
   */
  static final String REQUEST_BODY = "a request body (as --detailed_debug prints one after \"Request received by "
      + "LiteLLM\"), not a logged call: none of status, times, response or counts; skipped";

  private final JsonFactory json;
  private final TenantPaths tenants;

  PayloadReader(JsonFactory json, TenantPaths tenants) {
    this.json = json;
    this.tenants = tenants;
  }

  /**
   * @throws IOException the line is not valid JSON (a {@code JsonProcessingException})
   * @throws PayloadProblem the line is JSON but not a payload kvscope can use
   */
  RequestRecord.Builder read(String line) throws IOException, PayloadProblem {
    Payload payload = new Payload();
    try (JsonParser parser = json.createParser(line)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new PayloadProblem("not a JSON object");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (value.isScalarValue() && value != JsonToken.VALUE_NULL && tenants.isKey(field)) {
          payload.tenantValues.putIfAbsent(field, parser.getText());
        }
        readTopLevel(parser, field, payload);
      }
      if (!atEnd(parser)) {
        throw new PayloadProblem("unexpected data after the JSON object");
      }
    }
    if (!payload.logged && payload.prompt != null) {
      throw new PayloadProblem(REQUEST_BODY);
    }
    return payload.toBuilder(tenants);
  }

  /** True when nothing but whitespace follows the object (garbage after it is not a JSON error). */
  private static boolean atEnd(JsonParser parser) throws IOException {
    try {
      return parser.nextToken() == null;
    } catch (JsonProcessingException trailingGarbage) {
      return false;
    }
  }

  private void readTopLevel(JsonParser parser, String field, Payload payload) throws IOException, PayloadProblem {
    payload.logged |= LOGGED_CALL_FIELDS.contains(field);
    switch (field) {
      case "id" -> payload.id = text(parser);
      case "trace_id" -> payload.traceId = text(parser);
      case "litellm_call_id", "call_id" -> payload.callId = text(parser);
      case "model" -> payload.model = text(parser);
      case "model_group" -> payload.modelGroup = text(parser);
      case "status" -> payload.status = text(parser);
      case "startTime" -> payload.start = time(parser, field);
      case "endTime" -> payload.end = time(parser, field);
      case "completionStartTime" -> payload.firstToken = time(parser, field);
      case "prompt_tokens" -> payload.promptTokens = count(parser, field);
      case "completion_tokens" -> payload.completionTokens = count(parser, field);
      case "messages" -> payload.prompt = readMessages(parser);
      case "response" -> readResponse(parser, payload);
      case "error_information" -> readErrorInformation(parser, payload);
      case "error_str" -> payload.errorStr = text(parser);
      default -> {
        if (parser.currentToken() == JsonToken.START_OBJECT && tenants.leadsToKey(field)) {
          captureTenant(parser, field, payload.tenantValues);
        } else {
          parser.skipChildren();
        }
      }
    }
  }

  /** Walks into an object only along paths that lead to a tenant key. */
  private void captureTenant(JsonParser parser, String path, Map<String, String> found) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.START_OBJECT) {
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String child = path + "." + parser.currentName();
        parser.nextToken();
        if (tenants.leadsToKey(child)) {
          captureTenant(parser, child, found);
        } else {
          parser.skipChildren();
        }
      }
    } else if (token.isScalarValue()) {
      if (token != JsonToken.VALUE_NULL && tenants.isKey(path)) {
        found.putIfAbsent(path, parser.getText());
      }
    } else {
      parser.skipChildren();
    }
  }

  // ---- messages and content ----

  /** {@code messages}: a list of chat messages, or a plain prompt string (text completions). */
  private static String readMessages(JsonParser parser) throws IOException {
    Text out = new Text();
    switch (parser.currentToken()) {
      case VALUE_STRING -> out.add(parser.getText());
      case START_ARRAY -> {
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          switch (parser.currentToken()) {
            case VALUE_STRING -> out.add(parser.getText());
            case START_OBJECT -> readMessage(parser, out);
            default -> parser.skipChildren();
          }
        }
      }
      case START_OBJECT -> readMessage(parser, out);
      default -> parser.skipChildren();
    }
    return out.result();
  }

  /**
   * One chat message: its content, then the arguments of its {@code tool_calls} (and of a legacy
   * {@code function_call}) in order, the way {@link io.kvscope.ingest.json.MessageText} renders a
   * message, so that a trace of the same request reads the same text.
   */
  private static void readMessage(JsonParser parser, Text out) throws IOException {
    List<String> toolArguments = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      JsonToken value = parser.nextToken();
      switch (field) {
        case "content" -> readContent(parser, out);
        case "tool_calls" -> {
          if (value == JsonToken.START_ARRAY) {
            toolArguments = readToolCalls(parser, toolArguments);
          } else {
            parser.skipChildren();
          }
        }
        case "function_call" -> {
          if (value == JsonToken.START_OBJECT) {
            toolArguments = add(toolArguments, readFunctionArguments(parser));
          } else {
            parser.skipChildren();
          }
        }
        default -> parser.skipChildren();
      }
    }
    if (toolArguments != null) {
      toolArguments.forEach(out::add);
    }
  }

  /** {@code [{"id": ..., "type": "function", "function": {"name": ..., "arguments": "..."}}, ...]}. */
  private static List<String> readToolCalls(JsonParser parser, List<String> into) throws IOException {
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      if (parser.currentToken() != JsonToken.START_OBJECT) {
        parser.skipChildren();
        continue;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (field.equals("function") && value == JsonToken.START_OBJECT) {
          into = add(into, readFunctionArguments(parser));
        } else {
          parser.skipChildren();
        }
      }
    }
    return into;
  }

  /** A function object's {@code arguments}: JSON in a string as OpenAI sends it, kept as written. */
  private static String readFunctionArguments(JsonParser parser) throws IOException {
    String arguments = null;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      JsonToken value = parser.nextToken();
      if (field.equals("arguments") && value == JsonToken.VALUE_STRING) {
        arguments = parser.getText();
      } else if (field.equals("arguments") && value.isStructStart()) {
        arguments = readRawStructure(parser); // a provider that sends an object: kept as compact JSON
      } else {
        parser.skipChildren();
      }
    }
    return arguments == null || arguments.isEmpty() ? null : arguments;
  }

  private static String readRawStructure(JsonParser parser) throws IOException {
    java.io.StringWriter text = new java.io.StringWriter();
    try (com.fasterxml.jackson.core.JsonGenerator g = COMPACT.createGenerator(text)) {
      g.copyCurrentStructure(parser);
    }
    return text.toString();
  }

  private static List<String> add(List<String> list, String text) {
    if (text == null) {
      return list;
    }
    List<String> out = list == null ? new ArrayList<>(2) : list;
    out.add(text);
    return out;
  }

  /** A message's {@code content}: a string, or parts of which the {@code text} ones count. */
  private static void readContent(JsonParser parser, Text out) throws IOException {
    switch (parser.currentToken()) {
      case VALUE_STRING -> out.addContent(parser.getText());
      case START_ARRAY -> {
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          switch (parser.currentToken()) {
            case VALUE_STRING -> out.add(parser.getText());
            case START_OBJECT -> {
              while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("text") && value == JsonToken.VALUE_STRING) {
                  out.addContent(parser.getText());
                } else {
                  parser.skipChildren();
                }
              }
            }
            default -> parser.skipChildren();
          }
        }
      }
      default -> parser.skipChildren();
    }
  }

  // ---- response ----

  private void readResponse(JsonParser parser, Payload payload) throws IOException, PayloadProblem {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      parser.skipChildren(); // failures log the error text here, or null
      return;
    }
    Text answer = new Text();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      JsonToken value = parser.nextToken();
      switch (field) {
        case "id" -> payload.responseId = text(parser);
        case "choices" -> {
          if (value == JsonToken.START_ARRAY) {
            readChoices(parser, payload, answer);
          } else {
            parser.skipChildren();
          }
        }
        case "usage" -> readUsage(parser, payload);
        default -> parser.skipChildren();
      }
    }
    payload.response = answer.result();
  }

  private static void readChoices(JsonParser parser, Payload payload, Text answer) throws IOException {
    boolean first = true;
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      if (parser.currentToken() != JsonToken.START_OBJECT) {
        parser.skipChildren();
        continue;
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        switch (field) {
          case "finish_reason" -> {
            if (first && value.isScalarValue() && value != JsonToken.VALUE_NULL) {
              payload.finishReason = parser.getText();
            } else {
              parser.skipChildren();
            }
          }
          case "message" -> {
            if (value == JsonToken.START_OBJECT) {
              readMessage(parser, answer);
            } else {
              parser.skipChildren();
            }
          }
          case "text" -> {
            if (value == JsonToken.VALUE_STRING) {
              answer.add(parser.getText()); // text-completion choices
            } else {
              parser.skipChildren();
            }
          }
          default -> parser.skipChildren();
        }
      }
      first = false;
    }
  }

  private static void readUsage(JsonParser parser, Payload payload) throws IOException, PayloadProblem {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return;
    }
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      JsonToken value = parser.nextToken();
      switch (field) {
        case "prompt_tokens" -> payload.usagePromptTokens = count(parser, "response.usage.prompt_tokens");
        case "completion_tokens" -> payload.usageCompletionTokens = count(parser, "response.usage.completion_tokens");
        case "prompt_tokens_details" -> {
          if (value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            continue;
          }
          while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String detail = parser.currentName();
            parser.nextToken();
            if (detail.equals("cached_tokens")) {
              payload.cachedTokens = count(parser, "response.usage.prompt_tokens_details.cached_tokens");
            } else {
              parser.skipChildren();
            }
          }
        }
        default -> parser.skipChildren();
      }
    }
  }

  private static void readErrorInformation(JsonParser parser, Payload payload) throws IOException {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      parser.skipChildren();
      return;
    }
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      parser.nextToken();
      switch (field) {
        case "error_code" -> payload.errorCode = text(parser);
        case "error_message" -> payload.errorMessage = text(parser);
        default -> parser.skipChildren();
      }
    }
  }

  // ---- scalars ----

  /** A scalar as text ({@code null} for JSON null); objects and arrays are skipped as absent. */
  private static String text(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    if (token.isScalarValue() && token != JsonToken.VALUE_NULL) {
      return parser.getText();
    }
    parser.skipChildren();
    return null;
  }

  /** A token count: an integer, an integral float, or a number in a string. */
  private static Long count(JsonParser parser, String field) throws IOException, PayloadProblem {
    switch (parser.currentToken()) {
      case VALUE_NULL:
        return null;
      case VALUE_NUMBER_INT:
        return parser.getLongValue();
      case VALUE_NUMBER_FLOAT: {
        double d = parser.getDoubleValue();
        if (Double.isFinite(d) && d == Math.rint(d)) {
          return (long) d;
        }
        throw new PayloadProblem(field + " is not a whole number");
      }
      case VALUE_STRING: {
        String s = parser.getText().strip();
        if (s.isEmpty()) {
          return null;
        }
        try {
          return Long.parseLong(s);
        } catch (NumberFormatException e) {
          throw new PayloadProblem(field + " is not a number");
        }
      }
      default:
        parser.skipChildren();
        throw new PayloadProblem(field + " is not a number");
    }
  }

  /** Epoch seconds (a float, as LiteLLM writes them), or an ISO-8601 string. */
  private static Long time(JsonParser parser, String field) throws IOException, PayloadProblem {
    switch (parser.currentToken()) {
      case VALUE_NULL:
        return null;
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT:
        return Times.fromEpochAuto(parser.getDoubleValue());
      case VALUE_STRING: {
        String s = parser.getText().strip();
        if (s.isEmpty()) {
          return null;
        }
        try {
          return Times.fromEpochAuto(Double.parseDouble(s));
        } catch (NumberFormatException notANumber) {
          try {
            return Times.fromIso(s);
          } catch (IllegalArgumentException notIso) {
            throw new PayloadProblem(field + " is neither epoch seconds nor an ISO-8601 time");
          }
        }
      }
      default:
        parser.skipChildren();
        throw new PayloadProblem(field + " is not a time");
    }
  }

  /** LiteLLM's stand-in for content under {@code turn_off_message_logging} ({@code redact_messages.py}). */
  static final String REDACTED = "redacted-by-litellm";

  /** Texts joined with newlines; {@code null} when nothing was added. */
  private static final class Text {
    private StringBuilder out;

    /** Message content; LiteLLM's redaction placeholder is no content. */
    void addContent(String text) {
      if (!REDACTED.equals(text)) {
        add(text);
      }
    }

    void add(String text) {
      if (out == null) {
        out = new StringBuilder(text.length());
      } else {
        out.append(MessageText.SEPARATOR);
      }
      out.append(text);
    }

    String result() {
      return out == null ? null : out.toString();
    }
  }

  /** What one line said, before it is checked and turned into a record. */
  private static final class Payload {
    String id;
    String model;
    String modelGroup;
    String status;
    Long start;
    Long end;
    Long firstToken;
    Long promptTokens;
    Long completionTokens;
    Long usagePromptTokens;
    Long usageCompletionTokens;
    Long cachedTokens;
    String prompt;
    String response;
    String responseId;
    String finishReason;
    String errorCode;
    String errorMessage;
    String errorStr;
    /** Whether any field only a logged call has was read ({@link #LOGGED_CALL_FIELDS}). */
    boolean logged;
    String traceId;
    String callId;
    final Map<String, String> tenantValues = new HashMap<>();

    RequestRecord.Builder toBuilder(TenantPaths tenants) throws PayloadProblem {
      if (id == null || id.isBlank()) {
        throw new PayloadProblem("payload has no id");
      }
      boolean failed = failed();
      ErrorQuote quote = failed ? ErrorQuote.parse(errorMessage != null ? errorMessage : errorStr) : ErrorQuote.NONE;
      String rid = EngineRids.fromResponseId(responseId);
      return RequestRecord.builder(id)
          .engineRid(rid != null ? rid : quote.rid())
          .tenant(tenant(tenants))
          .model(model)
          .deployment(modelGroup != null && !modelGroup.isBlank() ? modelGroup : model)
          .startTime(start)
          // LiteLLM falls back to endTime when no first chunk was stamped; on a failure nothing came.
          .firstTokenTime(failed ? null : firstToken)
          .endTime(end)
          .statusCode(statusCode(quote))
          .finishReason(finishReason)
          // A failure's usage is the zero LiteLLM fills in, not a count.
          .promptTokens(measured(promptTokens != null ? promptTokens : usagePromptTokens, failed))
          .completionTokens(measured(completionTokens != null ? completionTokens : usageCompletionTokens, failed))
          .cachedTokens(cachedTokens)
          .promptText(prompt)
          .promptChars(prompt == null ? null : (long) prompt.length())
          .responseText(response)
          .origin(RecordOrigin.GATEWAY)
          .aliases(aliases())
          .quotedPromptTokens(quote.promptTokens())
          .quotedLimitTokens(quote.limitTokens());
    }

    private boolean failed() {
      return "failure".equalsIgnoreCase(status) || (status == null && errorCode != null);
    }

    private static Long measured(Long count, boolean failed) {
      return failed && count != null && count == 0 ? null : count;
    }

    /** Ids other than {@code id} that name this call: LiteLLM's trace and call ids, the response id. */
    private List<String> aliases() {
      List<String> aliases = new ArrayList<>(3);
      if (traceId != null && !traceId.isBlank()) {
        aliases.add("litellm_trace_id:" + traceId);
      }
      if (callId != null && !callId.isBlank() && !callId.equals(id)) {
        aliases.add("litellm_call_id:" + callId);
      }
      if (responseId != null && !responseId.isBlank() && !responseId.equals(id)) {
        aliases.add("response_id:" + responseId);
      }
      return aliases;
    }

    private String tenant(TenantPaths tenants) {
      for (String key : tenants.keys()) {
        String value = tenantValues.get(key);
        if (value != null && !value.isBlank()) {
          return value;
        }
      }
      return null;
    }

    /**
     * success is 200; a failure carries its HTTP status in error_code when the provider gave one,
     * else in the error text ({@code Error code: 400 - ...}); a failure without either is a 500.
     */
    private Integer statusCode(ErrorQuote quote) {
      if ("success".equalsIgnoreCase(status)) {
        return 200;
      }
      if (!failed()) {
        return null;
      }
      if (errorCode != null) {
        try {
          int code = Integer.parseInt(errorCode.strip());
          if (code >= 100 && code <= 599) {
            return code;
          }
        } catch (NumberFormatException notHttp) {
          // e.g. "invalid_request_error": a failure without an HTTP status
        }
      }
      return quote.httpStatus() != null ? quote.httpStatus() : 500;
    }
  }
}

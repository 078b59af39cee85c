package io.kvscope.samples.out;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kvscope.samples.sim.RequestPlan;
import io.kvscope.samples.sim.Tenant;
import io.kvscope.samples.text.TokenText;
import java.io.IOException;

/**
 * One OTLP/JSON export line ({@code resourceSpans[].scopeSpans[].spans[]}) holding the client span
 * of one chat call: hex ids, int64 as decimal strings (the file exporter's protobuf JSON). Two
 * instrumentations, as two kinds of client really run them:
 *
 * <ul>
 *   <li>{@code agent-gateway}: OpenTelemetry's {@code openai_v2} under the current GenAI
 *       conventions: {@code gen_ai.provider.name}, {@code gen_ai.usage.input_tokens}, content as
 *       JSON strings in {@code gen_ai.input.messages} / {@code gen_ai.output.messages}, a streaming
 *       call's {@code gen_ai.request.stream} and {@code gen_ai.response.time_to_first_chunk};
 *   <li>{@code batch-runner}: OpenLLMetry ({@code opentelemetry.instrumentation.openai.v1}, 0.47):
 *       span {@code openai.chat}, {@code gen_ai.system}, {@code gen_ai.usage.prompt_tokens}, content
 *       flattened into {@code gen_ai.prompt.N.role/content} and
 *       {@code gen_ai.completion.N.role/content/finish_reason}, {@code llm.is_streaming}.
 * </ul>
 *
 * Neither sets an HTTP status on the span or an OK status on success. A failed call has status
 * ERROR with {@code str(error)} ({@code Error code: 400 - {...}}) and {@code error.type} the
 * exception class; OpenLLMetry also records the {@code exception} event.
 */
final class OtlpLine {

  private OtlpLine() {}

  static void write(JsonGenerator g, JsonFactory factory, JsonText text, RequestPlan p) throws IOException {
    Tenant t = p.tenant();
    boolean openLlmetry = t.otlpService().equals("batch-runner");
    boolean ok = p.succeeded();
    g.writeStartObject();
    g.writeArrayFieldStart("resourceSpans");
    g.writeStartObject();
    g.writeObjectFieldStart("resource");
    g.writeArrayFieldStart("attributes");
    str(g, "service.name", t.otlpService());
    str(g, "service.version", openLlmetry ? "2.3.1" : "1.14.0");
    str(g, "deployment.environment", "prod");
    str(g, "telemetry.sdk.language", "python");
    g.writeEndArray();
    g.writeEndObject();
    g.writeArrayFieldStart("scopeSpans");
    g.writeStartObject();
    g.writeObjectFieldStart("scope");
    g.writeStringField("name", openLlmetry ? "opentelemetry.instrumentation.openai.v1" : "opentelemetry.instrumentation.openai_v2");
    g.writeStringField("version", openLlmetry ? "0.47.5" : "0.52b0");
    g.writeEndObject();
    g.writeArrayFieldStart("spans");
    g.writeStartObject();
    g.writeStringField("traceId", p.traceId());
    g.writeStringField("spanId", p.spanId());
    g.writeStringField("parentSpanId", p.traceId().substring(8, 24));
    g.writeStringField("name", openLlmetry ? "openai.chat" : "chat " + LiteLlmLine.MODEL_GROUP);
    g.writeNumberField("kind", 3);
    g.writeStringField("startTimeUnixNano", p.arrival() + "000000");
    g.writeStringField("endTimeUnixNano", p.gatewayEnd() + "000000");
    g.writeArrayFieldStart("attributes");
    if (openLlmetry) {
      openLlmetryAttributes(g, p, ok);
    } else {
      openAiV2Attributes(g, factory, text, p, ok);
    }
    str(g, "tenant.id", t.id());
    if (!ok) {
      str(g, "error.type", ClientError.ERROR_CLASS);
    }
    g.writeEndArray();
    if (!ok && openLlmetry) {
      g.writeArrayFieldStart("events");
      g.writeStartObject();
      g.writeStringField("timeUnixNano", p.gatewayEnd() + "000000");
      g.writeStringField("name", "exception");
      g.writeArrayFieldStart("attributes");
      str(g, "exception.type", "openai." + ClientError.ERROR_CLASS);
      str(g, "exception.message", ClientError.openAiClient(p.errorMessage()));
      str(g, "exception.escaped", "False");
      g.writeEndArray();
      g.writeEndObject();
      g.writeEndArray();
    }
    g.writeObjectFieldStart("status");
    if (!ok) {
      g.writeStringField("message", ClientError.openAiClient(p.errorMessage()));
      g.writeNumberField("code", 2);
    }
    g.writeEndObject();
    g.writeEndObject();
    g.writeEndArray();
    g.writeEndObject();
    g.writeEndArray();
    g.writeEndObject();
    g.writeEndArray();
    g.writeEndObject();
  }

  /** OpenTelemetry openai_v2 under the current GenAI conventions. */
  private static void openAiV2Attributes(JsonGenerator g, JsonFactory factory, JsonText text, RequestPlan p, boolean ok)
      throws IOException {
    str(g, "gen_ai.operation.name", "chat");
    str(g, "gen_ai.provider.name", "openai");
    str(g, "gen_ai.request.model", LiteLlmLine.MODEL_GROUP);
    integer(g, "gen_ai.request.max_tokens", p.maxTokens());
    dbl(g, "gen_ai.request.temperature", p.temperature());
    if (p.stream()) {
      bool(g, "gen_ai.request.stream", true);
    }
    str(g, "server.address", p.deployment().routerHost());
    integer(g, "server.port", 8000);
    inputMessages(factory, text, p);
    innerStr(g, "gen_ai.input.messages", text);
    if (ok) {
      str(g, "gen_ai.response.model", StartupBanner.SERVED_MODEL);
      str(g, "gen_ai.response.id", p.requestId());
      g.writeStartObject();
      g.writeStringField("key", "gen_ai.response.finish_reasons");
      g.writeObjectFieldStart("value");
      g.writeObjectFieldStart("arrayValue");
      g.writeArrayFieldStart("values");
      g.writeStartObject();
      g.writeStringField("stringValue", p.finishReason());
      g.writeEndObject();
      g.writeEndArray();
      g.writeEndObject();
      g.writeEndObject();
      g.writeEndObject();
      if (p.stream()) {
        dbl(g, "gen_ai.response.time_to_first_chunk", (p.gatewayFirstToken() - p.arrival()) / 1000.0);
      }
      integer(g, "gen_ai.usage.input_tokens", p.reportedPromptTokens());
      integer(g, "gen_ai.usage.output_tokens", p.outputTokens());
      outputMessages(factory, text, p);
      innerStr(g, "gen_ai.output.messages", text);
    }
  }

  /** OpenLLMetry 0.47: the older names and content flattened into indexed attributes. */
  private static void openLlmetryAttributes(JsonGenerator g, RequestPlan p, boolean ok) throws IOException {
    str(g, "llm.request.type", "chat");
    str(g, "gen_ai.system", "openai");
    str(g, "gen_ai.request.model", LiteLlmLine.MODEL_GROUP);
    integer(g, "gen_ai.request.max_tokens", p.maxTokens());
    dbl(g, "gen_ai.request.temperature", p.temperature());
    bool(g, "llm.is_streaming", p.stream());
    str(g, "gen_ai.openai.api_base", "http://" + p.deployment().routerHost() + ":8000/v1/");
    TokenText[] messages = p.messages();
    String[] roles = p.roles();
    for (int i = 0; i < messages.length; i++) {
      str(g, "gen_ai.prompt." + i + ".role", roles[i]);
      str(g, "gen_ai.prompt." + i + ".content", messages[i].text());
    }
    if (ok) {
      str(g, "gen_ai.response.model", StartupBanner.SERVED_MODEL);
      str(g, "gen_ai.response.id", p.requestId());
      integer(g, "llm.usage.total_tokens", p.reportedPromptTokens() + p.outputTokens());
      integer(g, "gen_ai.usage.completion_tokens", p.outputTokens());
      integer(g, "gen_ai.usage.prompt_tokens", p.reportedPromptTokens());
      str(g, "gen_ai.completion.0.finish_reason", p.finishReason());
      str(g, "gen_ai.completion.0.role", "assistant");
      str(g, "gen_ai.completion.0.content", p.replyText());
    }
  }

  private static void inputMessages(JsonFactory factory, JsonText text, RequestPlan p) throws IOException {
    TokenText[] messages = p.messages();
    try (JsonGenerator g = factory.createGenerator(text.inner())) {
      g.writeStartArray();
      String[] roles = p.roles();
      for (int i = 0; i < messages.length; i++) {
        g.writeStartObject();
        g.writeStringField("role", roles[i]);
        g.writeArrayFieldStart("parts");
        g.writeStartObject();
        g.writeStringField("type", "text");
        g.writeFieldName("content");
        g.writeString(messages[i].text());
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
    }
  }

  private static void outputMessages(JsonFactory factory, JsonText text, RequestPlan p) throws IOException {
    try (JsonGenerator g = factory.createGenerator(text.inner())) {
      g.writeStartArray();
      g.writeStartObject();
      g.writeStringField("role", "assistant");
      g.writeArrayFieldStart("parts");
      g.writeStartObject();
      g.writeStringField("type", "text");
      g.writeStringField("content", p.replyText());
      g.writeEndObject();
      g.writeEndArray();
      g.writeStringField("finish_reason", p.finishReason());
      g.writeEndObject();
      g.writeEndArray();
    }
  }

  private static void innerStr(JsonGenerator g, String key, JsonText text) throws IOException {
    g.writeStartObject();
    g.writeStringField("key", key);
    g.writeObjectFieldStart("value");
    g.writeFieldName("stringValue");
    text.innerAsString(g);
    g.writeEndObject();
    g.writeEndObject();
  }

  private static void str(JsonGenerator g, String key, String value) throws IOException {
    g.writeStartObject();
    g.writeStringField("key", key);
    g.writeObjectFieldStart("value");
    g.writeStringField("stringValue", value);
    g.writeEndObject();
    g.writeEndObject();
  }

  private static void bool(JsonGenerator g, String key, boolean value) throws IOException {
    g.writeStartObject();
    g.writeStringField("key", key);
    g.writeObjectFieldStart("value");
    g.writeBooleanField("boolValue", value);
    g.writeEndObject();
    g.writeEndObject();
  }

  private static void integer(JsonGenerator g, String key, long value) throws IOException {
    g.writeStartObject();
    g.writeStringField("key", key);
    g.writeObjectFieldStart("value");
    g.writeStringField("intValue", Long.toString(value));
    g.writeEndObject();
    g.writeEndObject();
  }

  private static void dbl(JsonGenerator g, String key, double value) throws IOException {
    g.writeStartObject();
    g.writeStringField("key", key);
    g.writeObjectFieldStart("value");
    g.writeNumberField("doubleValue", value);
    g.writeEndObject();
    g.writeEndObject();
  }
}

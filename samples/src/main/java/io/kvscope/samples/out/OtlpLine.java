package io.kvscope.samples.out;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kvscope.samples.sim.RequestPlan;
import io.kvscope.samples.sim.Tenant;
import io.kvscope.samples.text.TokenText;
import java.io.IOException;

/**
 * One OTLP/JSON export line ({@code resourceSpans[].scopeSpans[].spans[]}) holding the client span
 * of one chat call, in the GenAI semantic conventions: hex ids, int64 as decimal strings, content
 * as JSON strings in {@code gen_ai.input.messages} / {@code gen_ai.output.messages}. The
 * {@code batch-runner} service uses an older instrumentation that names usage
 * {@code gen_ai.usage.prompt_tokens} / {@code completion_tokens}.
 */
final class OtlpLine {

  private OtlpLine() {}

  static void write(JsonGenerator g, JsonFactory factory, JsonText text, RequestPlan p) throws IOException {
    Tenant t = p.tenant();
    boolean old = t.otlpService().equals("batch-runner");
    boolean ok = p.succeeded();
    g.writeStartObject();
    g.writeArrayFieldStart("resourceSpans");
    g.writeStartObject();
    g.writeObjectFieldStart("resource");
    g.writeArrayFieldStart("attributes");
    str(g, "service.name", t.otlpService());
    str(g, "service.version", old ? "2.3.1" : "1.14.0");
    str(g, "deployment.environment", "prod");
    str(g, "telemetry.sdk.language", "python");
    g.writeEndArray();
    g.writeEndObject();
    g.writeArrayFieldStart("scopeSpans");
    g.writeStartObject();
    g.writeObjectFieldStart("scope");
    g.writeStringField("name", "opentelemetry.instrumentation.openai_v2");
    g.writeStringField("version", old ? "0.46b0" : "0.52b0");
    g.writeEndObject();
    g.writeArrayFieldStart("spans");
    g.writeStartObject();
    g.writeStringField("traceId", p.traceId());
    g.writeStringField("spanId", p.spanId());
    g.writeStringField("parentSpanId", p.traceId().substring(8, 24));
    g.writeStringField("name", "chat " + LiteLlmLine.MODEL_GROUP);
    g.writeNumberField("kind", 3);
    g.writeStringField("startTimeUnixNano", p.arrival() + "000000");
    g.writeStringField("endTimeUnixNano", p.gatewayEnd() + "000000");
    g.writeArrayFieldStart("attributes");
    str(g, "gen_ai.operation.name", "chat");
    str(g, old ? "gen_ai.system" : "gen_ai.provider.name", "openai");
    str(g, "gen_ai.request.model", LiteLlmLine.MODEL_GROUP);
    integer(g, "gen_ai.request.max_tokens", p.maxTokens());
    dbl(g, "gen_ai.request.temperature", p.temperature());
    str(g, "server.address", p.deployment().routerHost());
    integer(g, "server.port", 8000);
    str(g, "tenant.id", t.id());
    integer(g, "http.response.status_code", p.statusCode());
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
      integer(g, old ? "gen_ai.usage.prompt_tokens" : "gen_ai.usage.input_tokens", p.reportedPromptTokens());
      integer(g, old ? "gen_ai.usage.completion_tokens" : "gen_ai.usage.output_tokens", p.outputTokens());
      outputMessages(factory, text, p);
      innerStr(g, "gen_ai.output.messages", text);
    } else {
      str(g, "error.type", "BadRequestError");
    }
    g.writeEndArray();
    g.writeObjectFieldStart("status");
    if (ok) {
      g.writeNumberField("code", 1);
    } else {
      g.writeNumberField("code", 2);
      g.writeStringField("message", "Error code: 400 - " + p.errorMessage());
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

package io.kvscope.samples.out;

import com.fasterxml.jackson.core.JsonGenerator;
import io.kvscope.samples.sim.Channel;
import io.kvscope.samples.sim.RequestPlan;
import io.kvscope.samples.sim.Tenant;
import io.kvscope.samples.text.TokenText;
import java.io.IOException;

/**
 * One LiteLLM {@code StandardLoggingPayload} as {@code get_standard_logging_object_payload}
 * ({@code litellm_core_utils/litellm_logging.py}) fills it: {@code id} is the response id
 * ({@code chatcmpl-<engine rid>}) on success and LiteLLM's call id on failure, times are epoch
 * seconds, the tenant is in {@code metadata.user_api_key_org_id} or only in {@code end_user}. A
 * failure ({@code _failure_handler_helper_fn}) has an empty {@code response}, zero usage, a
 * {@code completionStartTime} equal to its {@code endTime}, no hidden params, and the engine's
 * words only in {@code error_str} and {@code error_information.error_message}. {@code stream} is
 * true only for a completed stream, else null.
 */
final class LiteLlmLine {

  static final String MODEL_GROUP = "chat-1m";
  private static final double PROMPT_PRICE = 0.20e-6;
  private static final double COMPLETION_PRICE = 0.60e-6;

  private LiteLlmLine() {}

  static void write(JsonGenerator g, JsonText text, RequestPlan p) throws IOException {
    Tenant t = p.tenant();
    boolean ok = p.succeeded();
    long start = p.arrival();
    long end = p.gatewayEnd();
    long first = ok ? p.gatewayFirstToken() : end;
    long promptTokens = ok ? p.reportedPromptTokens() : 0;
    long completion = ok ? p.outputTokens() : 0;
    double cost = promptTokens * PROMPT_PRICE + completion * COMPLETION_PRICE;
    g.writeStartObject();
    g.writeStringField("id", p.requestId());
    g.writeStringField("trace_id", uuid(p.traceId()));
    g.writeStringField("call_type", "acompletion");
    if (ok && p.stream()) {
      g.writeBooleanField("stream", true);
    } else {
      g.writeNullField("stream");
    }
    g.writeBooleanField("cache_hit", false);
    g.writeStringField("status", ok ? "success" : "failure");
    g.writeStringField("custom_llm_provider", "openai");
    g.writeNumberField("saved_cache_cost", 0.0);
    g.writeFieldName("startTime");
    g.writeNumber(seconds(start));
    g.writeFieldName("endTime");
    g.writeNumber(seconds(end));
    g.writeFieldName("completionStartTime");
    g.writeNumber(seconds(first));
    g.writeFieldName("response_time");
    g.writeNumber(seconds(p.stream() && ok ? first - start : end - start));
    g.writeStringField("model", StartupBanner.SERVED_MODEL);
    g.writeStringField("model_id", p.deployment().name() + "-" + StartupBanner.SERVED_MODEL);
    g.writeStringField("model_group", MODEL_GROUP);
    g.writeStringField("api_base", p.deployment().apiBase());
    g.writeObjectFieldStart("metadata");
    if (t.channel() == Channel.LITELLM_END_USER) {
      g.writeStringField("user_api_key_hash", "5c0f3d6e2b9a41d7a8e6b1c4f09d2e7a3b5c8d1e4f6a7b9c0d2e3f4a5b6c7d8e");
      g.writeStringField("user_api_key_alias", "shared-integrations");
      g.writeNullField("user_api_key_org_id");
      g.writeNullField("user_api_key_team_id");
      g.writeStringField("user_api_key_user_id", "svc-integrations");
    } else {
      g.writeStringField("user_api_key_hash", t.keyHash());
      g.writeStringField("user_api_key_alias", t.keyAlias());
      g.writeStringField("user_api_key_org_id", t.id());
      g.writeStringField("user_api_key_team_id", t.teamId());
      g.writeStringField("user_api_key_user_id", t.userId());
    }
    g.writeNullField("spend_logs_metadata");
    g.writeStringField("requester_ip_address", t.clientIp());
    g.writeObjectFieldStart("requester_metadata");
    g.writeEndObject();
    g.writeEndObject();
    g.writeNullField("cache_key");
    g.writeFieldName("response_cost");
    g.writeNumber(plain(cost));
    g.writeNumberField("total_tokens", promptTokens + completion);
    g.writeNumberField("prompt_tokens", promptTokens);
    g.writeNumberField("completion_tokens", completion);
    g.writeArrayFieldStart("request_tags");
    g.writeEndArray();
    g.writeStringField("end_user", p.endUser() == null ? "" : p.endUser());
    g.writeStringField("requester_ip_address", t.clientIp());
    g.writeArrayFieldStart("messages");
    TokenText[] messages = p.messages();
    String[] roles = p.roles();
    for (int i = 0; i < messages.length; i++) {
      g.writeStartObject();
      g.writeStringField("role", roles[i]);
      g.writeFieldName("content");
      text.string(g, messages[i].text());
      g.writeEndObject();
    }
    g.writeEndArray();
    if (ok) {
      g.writeObjectFieldStart("response");
      g.writeStringField("id", p.requestId());
      g.writeStringField("object", "chat.completion");
      g.writeNumberField("created", p.arrival() / 1000);
      g.writeStringField("model", StartupBanner.SERVED_MODEL);
      g.writeArrayFieldStart("choices");
      g.writeStartObject();
      g.writeNumberField("index", 0);
      g.writeStringField("finish_reason", p.finishReason());
      g.writeObjectFieldStart("message");
      g.writeFieldName("content");
      text.string(g, p.replyText());
      g.writeStringField("role", "assistant");
      g.writeNullField("tool_calls");
      g.writeNullField("function_call");
      g.writeEndObject();
      g.writeEndObject();
      g.writeEndArray();
      g.writeObjectFieldStart("usage");
      g.writeNumberField("prompt_tokens", promptTokens);
      g.writeNumberField("completion_tokens", completion);
      g.writeNumberField("total_tokens", promptTokens + completion);
      g.writeObjectFieldStart("prompt_tokens_details");
      g.writeNumberField("cached_tokens", p.cachedTokens());
      g.writeEndObject();
      g.writeEndObject();
      g.writeEndObject();
    } else {
      g.writeObjectFieldStart("response"); // LiteLLM logs a failure with init_response_obj={}
      g.writeEndObject();
    }
    g.writeObjectFieldStart("model_parameters");
    g.writeNumberField("temperature", p.temperature());
    g.writeNumberField("max_tokens", p.maxTokens());
    if (p.endUser() != null) {
      g.writeStringField("user", p.endUser());
    }
    g.writeEndObject();
    g.writeObjectFieldStart("hidden_params");
    if (ok) {
      g.writeStringField("model_id", p.deployment().name() + "-" + StartupBanner.SERVED_MODEL);
      g.writeNullField("cache_key");
      g.writeStringField("api_base", p.deployment().apiBase());
      g.writeFieldName("response_cost");
      g.writeNumber(plain(cost));
      g.writeNumberField("litellm_overhead_time_ms", round3(1.5 + (p.ordinal() % 17) * 0.11));
    } else {
      // a failure's hidden params come from the exception's response headers: none here
      for (String field : new String[] {"model_id", "cache_key", "api_base", "response_cost",
          "additional_headers", "litellm_overhead_time_ms", "batch_models", "litellm_model_name", "usage_object"}) {
        g.writeNullField(field);
      }
    }
    g.writeEndObject();
    if (ok) {
      g.writeNullField("error_str");
      g.writeObjectFieldStart("error_information"); // get_error_information(None): empty strings
      for (String field : new String[] {"error_code", "error_class", "llm_provider", "traceback", "error_message"}) {
        g.writeStringField(field, "");
      }
      g.writeEndObject();
    } else {
      String error = ClientError.liteLlm(p.errorMessage());
      g.writeStringField("error_str", error);
      g.writeObjectFieldStart("error_information");
      g.writeStringField("error_code", "400");
      g.writeStringField("error_class", ClientError.ERROR_CLASS);
      g.writeStringField("llm_provider", "openai");
      g.writeStringField("traceback", "");
      g.writeStringField("error_message", error);
      g.writeEndObject();
    }
    g.writeNullField("response_cost_failure_debug_info");
    g.writeNullField("guardrail_information");
    g.writeEndObject();
  }

  /** A 32-hex-digit id in UUID layout (LiteLLM trace ids are UUIDs). */
  static String uuid(String hex32) {
    return hex32.substring(0, 8) + "-" + hex32.substring(8, 12) + "-" + hex32.substring(12, 16) + "-"
        + hex32.substring(16, 20) + "-" + hex32.substring(20, 32);
  }

  static double round3(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  /** Milliseconds as decimal seconds in plain notation, as Python's json prints epoch floats. */
  static String seconds(long ms) {
    long s = Math.floorDiv(ms, 1000);
    long frac = Math.floorMod(ms, 1000);
    return s + "." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + frac;
  }

  /** A small non-negative amount with nine decimals, plain notation, trailing zeros dropped. */
  static String plain(double v) {
    return java.math.BigDecimal.valueOf(Math.round(v * 1e9), 9).stripTrailingZeros().toPlainString();
  }
}

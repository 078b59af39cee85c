package io.kvscope.ingest.litellm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * LiteLLM {@code StandardLoggingPayload}s shaped as LiteLLM writes them, field order included
 * (call metadata first, then messages and response), with the bulky fields kvscope ignores.
 */
final class Payloads {

  static final ObjectMapper JSON = new ObjectMapper();

  private Payloads() {}

  /** A successful chat completion. {@code seconds} is the start as epoch seconds. */
  static ObjectNode success(String id, String responseId, String org, double seconds, String prompt, String answer) {
    ObjectNode p = JSON.createObjectNode();
    p.put("id", id);
    p.put("trace_id", "trace-" + id);
    p.put("call_type", "acompletion");
    p.put("cache_hit", false);
    p.put("stream", false);
    p.put("status", "success");
    p.put("custom_llm_provider", "openai");
    p.put("saved_cache_cost", 0.0);
    p.put("startTime", seconds);
    p.put("endTime", seconds + 2.5);
    p.put("completionStartTime", seconds + 0.75);
    p.put("response_time", 2.5);
    p.put("model", "qwen3-235b-a22b");
    ObjectNode metadata = p.putObject("metadata");
    metadata.put("user_api_key_hash", "88dc28d0f030c55ed4ab77ed8faf098196cb1c05df778539800c9f1243fe6b4b");
    metadata.put("user_api_key_alias", "svc-" + org);
    metadata.put("user_api_key_org_id", org);
    metadata.put("user_api_key_team_id", "team-" + org);
    metadata.put("user_api_key_user_id", "user-7");
    metadata.putObject("user_api_key_metadata").put("cost_center", "cc-1");
    metadata.putNull("spend_logs_metadata");
    metadata.putObject("requester_metadata");
    p.putNull("cache_key");
    p.put("response_cost", 0.00123);
    p.put("total_tokens", 1234);
    p.put("prompt_tokens", 1200);
    p.put("completion_tokens", 34);
    p.putArray("request_tags").add("prod");
    p.put("end_user", "");
    p.put("api_base", "http://prefill-router.internal:30000/v1");
    p.put("model_group", "qwen3-long");
    p.put("model_id", "4f8d0c3e");
    p.put("requester_ip_address", "10.1.2.3");
    ArrayNode messages = p.putArray("messages");
    messages.addObject().put("role", "system").put("content", "You are a helpful assistant.");
    messages.addObject().put("role", "user").put("content", prompt);
    ObjectNode response = p.putObject("response");
    response.put("id", responseId);
    response.put("created", (long) seconds);
    response.put("model", "qwen3-235b-a22b");
    response.put("object", "chat.completion");
    ObjectNode choice = response.putArray("choices").addObject();
    choice.put("finish_reason", "stop");
    choice.put("index", 0);
    ObjectNode message = choice.putObject("message");
    message.put("content", answer);
    message.put("role", "assistant");
    message.putNull("tool_calls");
    message.putNull("function_call");
    ObjectNode usage = response.putObject("usage");
    usage.put("completion_tokens", 34);
    usage.put("prompt_tokens", 1200);
    usage.put("total_tokens", 1234);
    usage.putObject("prompt_tokens_details").put("cached_tokens", 1024).putNull("audio_tokens");
    usage.putObject("completion_tokens_details").put("reasoning_tokens", 0);
    p.putObject("model_parameters").put("temperature", 0.2).put("max_tokens", 512);
    ObjectNode hidden = p.putObject("hidden_params");
    hidden.put("model_id", "4f8d0c3e");
    hidden.putNull("cache_key");
    hidden.put("api_base", "http://prefill-router.internal:30000/v1");
    hidden.put("response_cost", 0.00123);
    hidden.putObject("additional_headers").put("llm_provider-x-request-id", "abc");
    p.putObject("model_map_information").putObject("model_map_value").put("max_input_tokens", 1048576);
    p.putNull("error_str");
    p.putNull("error_information");
    p.putObject("response_cost_failure_debug_info");
    p.putObject("guardrail_information");
    return p;
  }

  /** A failed call: LiteLLM logs the provider's status in {@code error_information.error_code}. */
  static ObjectNode failure(String id, String org, double seconds, String prompt, Object errorCode) {
    ObjectNode p = success(id, null, org, seconds, prompt, "");
    p.put("status", "failure");
    p.put("response", "litellm.RateLimitError: too many requests");
    p.put("completion_tokens", 0);
    p.put("error_str", "RateLimitError: too many requests");
    ObjectNode error = p.putObject("error_information");
    if (errorCode instanceof Integer code) {
      error.put("error_code", code);
    } else {
      error.put("error_code", (String) errorCode);
    }
    error.put("error_class", "RateLimitError");
    error.put("llm_provider", "openai");
    error.put("traceback", "Traceback (most recent call last): ...");
    return p;
  }

  static String line(ObjectNode payload) {
    try {
      return JSON.writeValueAsString(payload);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}

package io.kvscope.ingest.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/**
 * The text of chat content in the shapes gateways and traces use, joined with newlines: a plain
 * string; a list of messages; an OpenAI message ({@code content} as a string or as parts, then the
 * {@code arguments} of each of its {@code tool_calls} and of a legacy {@code function_call}); a
 * GenAI message ({@code parts}: {@code text} content, a {@code tool_call}'s arguments, a
 * {@code tool_call_response}'s response); a choice's {@code message}.
 *
 * <p>Every reader renders a message the same way (its content, then its tool calls' arguments), so
 * the gateway's and a trace's copy of one request give the same text and merge without conflict.
 * Tool-call arguments count because a leak inside one must be visible to the analysis. Images,
 * audio, blobs (base64) and reasoning parts are left out.
 */
public final class MessageText {

  /**
   * What joins the messages (and a message's parts) of a logged prompt or reply, in every reader: a
   * message starts after it, which is how the analysis finds the question a prompt ends with.
   */
  public static final char SEPARATOR = '\n';


  private MessageText() {}

  /** The joined text of {@code node}, or {@code null} when it holds no text at all. */
  public static String of(JsonNode node) {
    StringBuilder out = new StringBuilder();
    boolean found = append(node, out, 0);
    return found ? out.toString() : null;
  }

  /** Joins two optional texts with a newline. */
  public static String join(String first, String second) {
    if (first == null) {
      return second;
    }
    if (second == null) {
      return first;
    }
    return first + "\n" + second;
  }

  /**
   * A tool call's arguments as text: a string as it is (OpenAI sends JSON in a string), anything
   * else as compact JSON; {@code null} when absent or empty.
   */
  public static String arguments(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return null;
    }
    String text = value.isTextual() ? value.textValue() : value.toString();
    return text.isEmpty() ? null : text;
  }

  private static final int MAX_DEPTH = 32;

  private static boolean append(JsonNode node, StringBuilder out, int depth) {
    if (node == null || node.isNull() || node.isMissingNode() || depth > MAX_DEPTH) {
      return false;
    }
    if (node.isTextual()) {
      return add(node.textValue(), out);
    }
    if (node.isArray()) {
      boolean found = false;
      for (JsonNode element : node) {
        found |= append(element, out, depth + 1);
      }
      return found;
    }
    if (!node.isObject()) {
      return false;
    }
    JsonNode type = node.get("type");
    if (type != null && type.isTextual() && !node.has("role")) {
      return part(type.textValue().toLowerCase(Locale.ROOT), node, out, depth);
    }
    boolean found = false;
    for (String field : new String[] {"content", "parts", "text", "message"}) {
      JsonNode value = node.get(field);
      if (value != null && !value.isNull()) {
        found = append(value, out, depth + 1);
        break;
      }
    }
    JsonNode toolCalls = node.get("tool_calls");
    if (toolCalls != null && toolCalls.isArray()) {
      for (JsonNode call : toolCalls) {
        found |= add(arguments(call.path("function").get("arguments")), out);
      }
    }
    JsonNode functionCall = node.get("function_call");
    if (functionCall != null && functionCall.isObject()) {
      found |= add(arguments(functionCall.get("arguments")), out);
    }
    return found;
  }

  /** One typed content part (OpenAI content parts and GenAI message parts). */
  private static boolean part(String type, JsonNode node, StringBuilder out, int depth) {
    return switch (type) {
      case "text", "input_text", "output_text" -> {
        JsonNode content = node.has("content") ? node.get("content") : node.get("text");
        yield append(content, out, depth + 1);
      }
      case "tool_call", "function" -> add(arguments(node.has("arguments") ? node.get("arguments")
          : node.path("function").get("arguments")), out);
      case "tool_call_response" -> add(arguments(node.has("response") ? node.get("response") : node.get("result")), out);
      default -> false; // image_url, blob, uri, file, reasoning, server tool calls
    };
  }

  private static boolean add(String text, StringBuilder out) {
    if (text == null) {
      return false;
    }
    if (!out.isEmpty()) {
      out.append(SEPARATOR);
    }
    out.append(text);
    return true;
  }
}

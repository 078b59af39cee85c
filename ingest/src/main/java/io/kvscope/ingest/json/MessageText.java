package io.kvscope.ingest.json;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The text of chat content in the shapes gateways and traces use, joined with newlines: a plain
 * string; a list of messages; a message with {@code content} (a string, or parts carrying
 * {@code text} or {@code content}, as in OpenAI and the GenAI semantic conventions); GenAI
 * {@code parts}; a choice's {@code message}. Non-text parts (images, tool calls) are left out.
 */
public final class MessageText {

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

  private static final int MAX_DEPTH = 32;

  private static boolean append(JsonNode node, StringBuilder out, int depth) {
    if (node == null || node.isNull() || node.isMissingNode() || depth > MAX_DEPTH) {
      return false;
    }
    if (node.isTextual()) {
      separate(out);
      out.append(node.textValue());
      return true;
    }
    if (node.isArray()) {
      boolean found = false;
      for (JsonNode element : node) {
        found |= append(element, out, depth + 1);
      }
      return found;
    }
    if (node.isObject()) {
      for (String field : new String[] {"content", "parts", "text", "message"}) {
        JsonNode value = node.get(field);
        if (value != null && !value.isNull()) {
          return append(value, out, depth + 1);
        }
      }
    }
    return false;
  }

  private static void separate(StringBuilder out) {
    if (!out.isEmpty()) {
      out.append('\n');
    }
  }
}

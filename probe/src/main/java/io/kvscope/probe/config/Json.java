package io.kvscope.probe.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Lenient reading of endpoint responses: a body that is not JSON is "not this shape", never a crash. */
final class Json {

  static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  /** The body's JSON object, or null when it is not one. */
  static JsonNode object(String body) {
    if (body == null) {
      return null;
    }
    try {
      JsonNode node = MAPPER.readTree(body);
      return node != null && node.isObject() ? node : null;
    } catch (JsonProcessingException notJson) {
      return null;
    }
  }

  /** A whole non-negative number, written as a JSON number or a numeric string; else null. */
  static Long count(JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.longValue() >= 0 ? node.longValue() : null;
    }
    if (node.isNumber()) {
      double d = node.doubleValue();
      return d >= 0 && d == Math.rint(d) && d < 9e18 ? (long) d : null;
    }
    if (node.isTextual()) {
      try {
        long v = Long.parseLong(node.textValue().strip());
        return v >= 0 ? v : null;
      } catch (NumberFormatException notANumber) {
        return null;
      }
    }
    return null;
  }

  /** Non-blank text, else null. */
  static String text(JsonNode node) {
    if (node == null || node.isNull() || node.isContainerNode()) {
      return null;
    }
    String t = node.asText();
    return t == null || t.isBlank() ? null : t.strip();
  }

  /** The value as the server wrote it, for evidence. */
  static String raw(JsonNode node) {
    return node == null ? "absent" : node.isTextual() ? node.textValue() : node.toString();
  }
}

package io.kvscope.ingest.otlp;

import com.fasterxml.jackson.databind.JsonNode;

/** Attribute values read as the types kvscope needs; numbers may arrive as decimal strings. */
final class AttributeValues {

  private AttributeValues() {}

  /** A scalar as text; {@code null} for absent, null, blank or structured values. */
  static String text(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode() || value.isContainerNode()) {
      return null;
    }
    String text = value.asText();
    return text.isBlank() ? null : text;
  }

  /**
   * A whole number from a number or a decimal string; {@code null} when absent.
   *
   * @throws IllegalArgumentException when present but not a whole number (names {@code key} only)
   */
  static Long whole(JsonNode value, String key) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return null;
    }
    if (value.isIntegralNumber()) {
      return value.longValue();
    }
    if (value.isNumber() && value.doubleValue() == Math.rint(value.doubleValue())) {
      return (long) value.doubleValue();
    }
    if (value.isTextual()) {
      String text = value.textValue().strip();
      if (text.isEmpty()) {
        return null;
      }
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        // not a decimal integer: reported below
      }
    }
    throw new IllegalArgumentException(key + " is not a whole number");
  }

  /** A whole number as {@link #whole} reads it, or {@code null} when it is not one. */
  static Long wholeOrNull(JsonNode value) {
    try {
      return whole(value, "value");
    } catch (IllegalArgumentException notWhole) {
      return null;
    }
  }

  /** A number from a number or a decimal string; {@code null} when absent or not a number. */
  static Double decimal(JsonNode value) {
    if (value == null || value.isNull()) {
      return null;
    }
    if (value.isNumber()) {
      return value.doubleValue();
    }
    if (value.isTextual()) {
      try {
        return Double.parseDouble(value.textValue().strip());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  /** The first element of an array value, or the value itself when it is a scalar. */
  static String firstText(JsonNode value) {
    if (value != null && value.isArray()) {
      for (JsonNode element : value) {
        String text = text(element);
        if (text != null) {
          return text;
        }
      }
      return null;
    }
    return text(value);
  }
}

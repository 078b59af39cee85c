package io.kvscope.ingest.custom;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvscope.ingest.json.Times;
import java.util.Locale;
import java.util.Optional;

/** How a custom log writes its times: the mapping's {@code time_unit}. */
enum TimeUnitSetting {
  /** Epoch numbers by magnitude (s, ms, us, ns), strings as ISO-8601 or numbers in text. */
  AUTO("auto"),
  SECONDS("s"),
  MILLIS("ms"),
  MICROS("us"),
  NANOS("ns"),
  ISO8601("iso8601");

  private final String setting;

  TimeUnitSetting(String setting) {
    this.setting = setting;
  }

  String setting() {
    return setting;
  }

  static Optional<TimeUnitSetting> of(String setting) {
    String wanted = setting.strip().toLowerCase(Locale.ROOT);
    for (TimeUnitSetting unit : values()) {
      if (unit.setting.equals(wanted)) {
        return Optional.of(unit);
      }
    }
    return Optional.empty();
  }

  /**
   * The time in {@code value} as UTC epoch ms, {@code null} when absent.
   *
   * @throws IllegalArgumentException when the value is not a time in this unit
   */
  Long toMillis(JsonNode value, String field) {
    if (value == null || value.isMissingNode() || value.isNull()) {
      return null;
    }
    if (value.isTextual()) {
      String text = value.textValue().strip();
      if (text.isEmpty()) {
        return null;
      }
      if (this == ISO8601) {
        return iso(text, field);
      }
      try {
        return fromNumber(Double.parseDouble(text));
      } catch (NumberFormatException notNumber) {
        if (this == AUTO) {
          return iso(text, field);
        }
        throw new IllegalArgumentException(field + " is not an epoch number in unit '" + setting + "'");
      }
    }
    if (value.isNumber()) {
      if (this == ISO8601) {
        throw new IllegalArgumentException(field + " is a number but the mapping says times are ISO-8601 text");
      }
      if (value.isIntegralNumber() && this != AUTO && this != SECONDS) {
        return fromWhole(value.longValue());
      }
      return fromNumber(value.doubleValue());
    }
    throw new IllegalArgumentException(field + " is not a time");
  }

  private Long fromWhole(long v) {
    return switch (this) {
      case MILLIS -> v;
      case MICROS -> Math.floorDiv(v, 1_000L);
      case NANOS -> Math.floorDiv(v, 1_000_000L);
      default -> fromNumber((double) v);
    };
  }

  private Long fromNumber(double v) {
    return switch (this) {
      case AUTO -> Times.fromEpochAuto(v);
      case SECONDS -> Times.fromEpochSeconds(v);
      case MILLIS -> Math.round(v);
      case MICROS -> Math.round(v / 1e3);
      case NANOS -> Math.round(v / 1e6);
      case ISO8601 -> throw new IllegalStateException("ISO-8601 times are text");
    };
  }

  private static long iso(String text, String field) {
    try {
      return Times.fromIso(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + " is " + e.getMessage());
    }
  }
}

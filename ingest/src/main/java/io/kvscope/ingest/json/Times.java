package io.kvscope.ingest.json;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** Conversions of the time shapes found in logs to UTC epoch milliseconds. */
public final class Times {

  private Times() {}

  /** Epoch seconds with a fraction ({@code 1767225600.123456}) to milliseconds. */
  public static long fromEpochSeconds(double seconds) {
    return Math.round(seconds * 1000.0);
  }

  /**
   * An epoch number whose unit is told by its size: seconds before about the year 5138,
   * milliseconds, microseconds, nanoseconds after that. Any date from 1973 on is read right.
   */
  public static long fromEpochAuto(double value) {
    double magnitude = Math.abs(value);
    if (magnitude < 1e11) {
      return Math.round(value * 1000.0);
    }
    if (magnitude < 1e14) {
      return Math.round(value);
    }
    if (magnitude < 1e17) {
      return Math.round(value / 1000.0);
    }
    return Math.round(value / 1_000_000.0);
  }

  /**
   * ISO-8601 text to milliseconds: an instant ({@code 2026-08-27T10:00:00Z}), with an offset
   * ({@code +02:00}), or without a zone (read as UTC); a space may stand for the {@code T}.
   *
   * @throws IllegalArgumentException when the text is not such a time (the message does not
   *     quote it)
   */
  public static long fromIso(String text) {
    String t = text.strip();
    if (t.length() > 10 && t.charAt(10) == ' ') {
      t = t.substring(0, 10) + 'T' + t.substring(11);
    }
    try {
      return Instant.parse(t).toEpochMilli();
    } catch (DateTimeParseException notInstant) {
      try {
        return OffsetDateTime.parse(t).toInstant().toEpochMilli();
      } catch (DateTimeParseException notOffset) {
        try {
          return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException notLocal) {
          throw new IllegalArgumentException("not an ISO-8601 time (" + t.length() + " characters)");
        }
      }
    }
  }
}

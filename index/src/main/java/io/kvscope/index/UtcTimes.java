package io.kvscope.index;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * The absolute times a person types, read the same everywhere (the query parser, {@code --since}
 * and {@code --until}): a date ({@code 2026-08-27}, midnight UTC), an instant
 * ({@code 2026-08-27T10:00:00Z}, or with an offset such as {@code +02:00}), or a date and time
 * without a zone ({@code 2026-08-27T10:00}, {@code 2026-08-27 10:00:30}), which is UTC like every
 * time kvscope shows.
 */
public final class UtcTimes {

  /** The forms, for messages. */
  public static final String FORMS = "2026-08-27, 2026-08-27T10:00:00Z, 2026-08-27T12:00+02:00 or '2026-08-27 10:00'";

  private UtcTimes() {}

  /** Whether {@code text} is a date alone (a whole day where a range or an exact match wants one). */
  public static boolean isDate(String text) {
    return text.length() == 10 && text.charAt(4) == '-' && text.charAt(7) == '-';
  }

  /**
   * The instant {@code text} names.
   *
   * @throws DateTimeParseException when it is none of the forms
   */
  public static Instant parse(String text) {
    String value = text.strip();
    if (isDate(value)) {
      return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
    }
    String iso = value.toUpperCase(Locale.ROOT).replace(' ', 'T');
    if (iso.endsWith("Z") || iso.matches(".*[+-]\\d\\d:\\d\\d$")) {
      return OffsetDateTime.parse(iso).toInstant(); // seconds optional, unlike Instant.parse
    }
    return LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC);
  }
}

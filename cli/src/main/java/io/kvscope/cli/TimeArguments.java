package io.kvscope.cli;

import io.kvscope.index.UtcTimes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The times and durations a person types at 3 a.m.: {@code 7d}, {@code 36h}, {@code P7D};
 * {@code 2026-08-27}, {@code 2026-08-27T10:00:00Z}, {@code 2026-08-27 10:00}, {@code yesterday},
 * {@code 2d ago}. Every time is UTC, like the reports.
 */
final class TimeArguments {

  private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(w|d|h|m|s)");
  private static final Pattern AGO = Pattern.compile("(.+?)\\s*ago");

  static final String DURATION_FORMS = "a duration such as 7d, 36h, 90m, 2w or ISO-8601 P7D / PT12H";
  static final String TIME_FORMS = "a UTC time such as 2026-08-27, 2026-08-27T10:00:00Z, '2026-08-27 10:00', "
      + "today, yesterday, now, or a duration before now such as 7d or '36h ago'";

  private TimeArguments() {}

  static Duration duration(String text) {
    String value = text.strip().toLowerCase(Locale.ROOT);
    Matcher shorthand = SHORT_DURATION.matcher(value);
    if (shorthand.matches()) {
      long amount = Long.parseLong(shorthand.group(1));
      return switch (shorthand.group(2)) {
        case "w" -> Duration.ofDays(7 * amount);
        case "d" -> Duration.ofDays(amount);
        case "h" -> Duration.ofHours(amount);
        case "m" -> Duration.ofMinutes(amount);
        default -> Duration.ofSeconds(amount);
      };
    }
    try {
      return Duration.parse(value.toUpperCase(Locale.ROOT));
    } catch (DateTimeParseException notIso) {
      throw new TypeConversionException("'" + text + "' is not a duration: give " + DURATION_FORMS);
    }
  }

  static Instant time(String text, Clock clock) {
    String value = text.strip().toLowerCase(Locale.ROOT);
    Instant now = clock.instant();
    switch (value) {
      case "now" -> {
        return now;
      }
      case "today" -> {
        return now.truncatedTo(ChronoUnit.DAYS);
      }
      case "yesterday" -> {
        return now.truncatedTo(ChronoUnit.DAYS).minus(Duration.ofDays(1));
      }
      default -> { }
    }
    Matcher ago = AGO.matcher(value);
    if (ago.matches() || SHORT_DURATION.matcher(value).matches()) {
      return now.minus(duration(ago.matches() ? ago.group(1) : value));
    }
    try {
      return UtcTimes.parse(value);
    } catch (DateTimeParseException notATime) {
      throw new TypeConversionException("'" + text + "' is not a time: give " + TIME_FORMS);
    }
  }

  static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return duration(value);
    }
  }

  static final class TimeConverter implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
      return time(value, Clock.systemUTC());
    }
  }
}

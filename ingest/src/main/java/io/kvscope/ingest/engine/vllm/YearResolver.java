package io.kvscope.ingest.engine.vllm;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Gives year-less log dates ({@code 08-27 10:00:01}) their year: the latest year in which the date is
 * not later than a reference time (the file's last modification) plus a day of slack for clocks. A
 * log written 2026-12-31 and 2027-01-01 with mtime 2027-01-01 gets 2026 and 2027; a 2026 log copied
 * and analysed in 2027 still gets 2026.
 */
final class YearResolver {

  private static final long SLACK_MS = 24L * 3_600_000L;

  private final long referenceMs;
  private final int referenceYear;
  private int cachedMonth = -1;
  private int cachedDay = -1;
  private int cachedYear;

  YearResolver(long referenceMs) {
    this.referenceMs = referenceMs;
    this.referenceYear = LocalDateTime.ofEpochSecond(Math.floorDiv(referenceMs, 1000), 0, ZoneOffset.UTC).getYear();
  }

  /** UTC epoch ms of the date and time, or {@code null} when no year makes it a real date. */
  Long epochMillis(int month, int day, int hour, int minute, int second, int millis) {
    if (month == cachedMonth && day == cachedDay) {
      return of(cachedYear, month, day, hour, minute, second, millis);
    }
    for (int year = referenceYear + 1; year >= referenceYear - 4; year--) {
      Long t = of(year, month, day, hour, minute, second, millis);
      if (t != null && t <= referenceMs + SLACK_MS) {
        cachedMonth = month;
        cachedDay = day;
        cachedYear = year;
        return t;
      }
    }
    return null;
  }

  private static Long of(int year, int month, int day, int hour, int minute, int second, int millis) {
    try {
      return LocalDateTime.of(year, month, day, hour, minute, second).toEpochSecond(ZoneOffset.UTC) * 1000L
          + millis;
    } catch (DateTimeException impossible) {
      return null;
    }
  }
}

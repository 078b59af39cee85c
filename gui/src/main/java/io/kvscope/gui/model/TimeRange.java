package io.kvscope.gui.model;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** A half-open stretch of time {@code [start, end)}, as brushed on the timeline. */
public record TimeRange(Instant start, Instant end) {

  public TimeRange {
    if (start == null || end == null || !end.isAfter(start)) {
      throw new IllegalArgumentException("a time range needs a start before its end: " + start + " .. " + end);
    }
  }

  /** The whole hours covering {@code a} and {@code b}, whichever comes first. */
  public static TimeRange hoursCovering(Instant a, Instant b) {
    Instant from = (a.isBefore(b) ? a : b).truncatedTo(ChronoUnit.HOURS);
    Instant last = (a.isBefore(b) ? b : a).truncatedTo(ChronoUnit.HOURS);
    return new TimeRange(from, last.plus(Duration.ofHours(1)));
  }

  public boolean contains(Instant time) {
    return time != null && !time.isBefore(start) && time.isBefore(end);
  }

  public boolean overlaps(Instant from, Instant to) {
    return from.isBefore(end) && (to == null || to.isAfter(start));
  }
}

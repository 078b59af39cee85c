package io.kvscope.gui.view;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** Maps a time domain onto a horizontal pixel range, and picks tick marks that fit. */
public record TimeScale(Instant from, Instant to, double left, double right) {

  public TimeScale {
    if (!to.isAfter(from)) {
      to = from.plus(Duration.ofHours(1));
    }
  }

  public double x(Instant t) {
    double span = to.toEpochMilli() - from.toEpochMilli();
    return left + (t.toEpochMilli() - from.toEpochMilli()) / span * (right - left);
  }

  public Instant instant(double x) {
    double clamped = Math.max(left, Math.min(right, x));
    double span = to.toEpochMilli() - from.toEpochMilli();
    return Instant.ofEpochMilli(from.toEpochMilli() + Math.round((clamped - left) / (right - left) * span));
  }

  /** Pixels one hour takes. */
  public double hourWidth() {
    return (right - left) / Math.max(1.0, Duration.between(from, to).toMinutes() / 60.0);
  }

  /**
   * Tick times at whole days (or at 1, 3, 6 or 12 hours for a short domain), no closer than
   * {@code minGap} pixels.
   */
  public List<Instant> ticks(double minGap) {
    long[] stepsHours = {1, 3, 6, 12, 24, 48, 96, 168, 336, 720};
    long stepHours = stepsHours[stepsHours.length - 1];
    for (long step : stepsHours) {
      if (step * hourWidth() >= minGap) {
        stepHours = step;
        break;
      }
    }
    Instant first;
    if (stepHours >= 24) {
      first = from.truncatedTo(ChronoUnit.DAYS);
    } else {
      long hour = Math.floorDiv(from.getEpochSecond(), 3600);
      first = Instant.ofEpochSecond(Math.floorDiv(hour + stepHours - 1, stepHours) * stepHours * 3600);
    }
    List<Instant> ticks = new ArrayList<>();
    for (Instant t = first; !t.isAfter(to); t = t.plus(Duration.ofHours(stepHours))) {
      if (!t.isBefore(from)) {
        ticks.add(t);
      }
    }
    return ticks;
  }
}

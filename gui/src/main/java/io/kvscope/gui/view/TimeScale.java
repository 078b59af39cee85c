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

  /** In seconds, as a double: no span of instants overflows it, however far apart. */
  private static double seconds(Instant from, Instant to) {
    return (double) to.getEpochSecond() - from.getEpochSecond() + (to.getNano() - from.getNano()) / 1e9;
  }

  public double x(Instant t) {
    return left + seconds(from, t) / seconds(from, to) * (right - left);
  }

  public Instant instant(double x) {
    double clamped = Math.max(left, Math.min(right, x));
    double offset = (clamped - left) / (right - left) * seconds(from, to);
    return from.plusMillis(Math.round(offset * 1000));
  }

  /** Pixels one hour takes. */
  public double hourWidth() {
    return (right - left) / Math.max(1.0, seconds(from, to) / 3600.0);
  }

  /**
   * Tick times at whole days (or at 1, 3, 6 or 12 hours for a short domain), no closer than
   * {@code minGap} pixels: however long the domain, no more ticks than fit.
   */
  public List<Instant> ticks(double minGap) {
    long[] stepsHours = {1, 3, 6, 12, 24, 48, 96, 168, 336, 720};
    // Beyond a month a tick, whole days spaced to fit (a domain of centuries stays a few ticks).
    long stepHours = 24 * (long) Math.ceil(minGap / Math.max(hourWidth(), 1e-12) / 24);
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
      if (Duration.between(t, Instant.MAX).toHours() < stepHours) {
        break; // the last instant there is
      }
    }
    return ticks;
  }
}

package io.kvscope.samples.sim;

import io.kvscope.samples.fleet.Fleet;

/**
 * The load shape: a diurnal curve (morning and afternoon peaks, quiet nights, half load at
 * weekends, UTC) and the rate of over-length prompts, which jumps when the 1M context is announced
 * on 2026-08-27 and falls once callers start getting errors.
 */
final class Traffic {

  static final long DAY_MS = 86_400_000L;
  static final long ANNOUNCED = Fleet.PERIOD_START + 7 * DAY_MS + 10 * 3_600_000L;
  static final long COOLED = Fleet.PERIOD_START + 21 * DAY_MS;

  private final double normalPerDay;
  private final double overPerDayScale;
  private final double mean;
  private final double max;

  Traffic(double normalPerDay, double overPerDayScale) {
    this.normalPerDay = normalPerDay;
    this.overPerDayScale = overPerDayScale;
    double sum = 0;
    double hi = 0;
    int samples = 7 * 24 * 60;
    for (int i = 0; i < samples; i++) {
      double s = shape(Fleet.PERIOD_START + i * 60_000L);
      sum += s;
      hi = Math.max(hi, s);
    }
    mean = sum / samples;
    max = hi;
  }

  /** Relative load at {@code t}; 2026-08-20 is a Thursday. */
  static double shape(long t) {
    double h = Math.floorMod(t, DAY_MS) / 3_600_000.0;
    long epochDay = Math.floorDiv(t, DAY_MS);
    int dow = (int) Math.floorMod(epochDay + 3, 7L); // Monday = 0
    double s = 0.18 + StrictMath.exp(-sq((h - 14.5) / 3.5)) + 0.55 * StrictMath.exp(-sq((h - 8.5) / 2.2))
        + 0.25 * StrictMath.exp(-sq((h - 20) / 2.5));
    return dow >= 5 ? s * 0.5 : s;
  }

  private static double sq(double x) {
    return x * x;
  }

  /** Normal arrivals per ms at {@code t}. */
  double normalRate(long t) {
    return normalPerDay * shape(t) / mean / DAY_MS;
  }

  double normalMaxRate() {
    return normalPerDay * max / mean / DAY_MS;
  }

  /** Over-length arrivals per day before scaling. */
  static double overBase(long t) {
    if (t < ANNOUNCED) {
      return 0.25;
    }
    return t < COOLED ? 3.2 : 1.5;
  }

  double overRate(long t) {
    return overPerDayScale * overBase(t) * shape(t) / mean / DAY_MS;
  }

  double overMaxRate() {
    return overPerDayScale * 3.2 * max / mean / DAY_MS;
  }
}

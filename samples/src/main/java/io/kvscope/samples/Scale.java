package io.kvscope.samples;

import java.util.Locale;

/**
 * How big a generated incident is. All scales cover the same period (2026-08-20 to 2026-09-15)
 * and the same incident timeline; they differ in traffic and tenants.
 *
 * <ul>
 *   <li>{@code small}: about 4,000 requests from 60 tenants, tens of leaked responses, about 300 MB
 *       raw (most of it a few dozen multi-megabyte over-length prompts); seconds to generate.
 *   <li>{@code medium}: 10x the traffic, 120 tenants.
 *   <li>{@code large}: 100x the traffic, 200 tenants; several GB, for benchmarks.
 *   <li>{@code Nx}: N times small's traffic (N may be fractional, e.g. {@code 0.25x}).
 * </ul>
 *
 * Over-length prompts scale with the square root of the multiplier above 1 (they are megabytes
 * each and would otherwise dominate), linearly below 1.
 *
 * @param multiplier traffic relative to {@code small}
 */
public record Scale(String name, double multiplier, int tenants) {

  public static final Scale SMALL = new Scale("small", 1, 60);
  public static final Scale MEDIUM = new Scale("medium", 10, 120);
  public static final Scale LARGE = new Scale("large", 100, 200);

  /** Requests per day (before follow-ups) at multiplier 1. */
  private static final double SMALL_NEW_REQUESTS_PER_DAY = 95;

  public Scale {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("scale needs a name");
    }
    if (!(multiplier > 0) || multiplier > 10_000) {
      throw new IllegalArgumentException("scale multiplier must be in (0, 10000], was " + multiplier);
    }
    if (tenants < 8 || tenants > 600) {
      throw new IllegalArgumentException("tenants must be 8..600, was " + tenants);
    }
  }

  /** {@code n} times small's traffic; tenants grow slowly with traffic (capped at 200). */
  public static Scale times(double n) {
    int tenants = (int) Math.max(12, Math.min(200, Math.round(60 * StrictMath.pow(n, 0.3))));
    String label = n == Math.rint(n) ? Long.toString((long) n) : Double.toString(n);
    return new Scale(label + "x", n, tenants);
  }

  /** Parses {@code small}, {@code medium}, {@code large} or {@code <N>x} (e.g. {@code 3x}, {@code 0.5x}). */
  public static Scale parse(String text) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    switch (s) {
      case "small":
        return SMALL;
      case "medium":
        return MEDIUM;
      case "large":
        return LARGE;
      default:
        break;
    }
    if (s.endsWith("x")) {
      try {
        return times(Double.parseDouble(s.substring(0, s.length() - 1)));
      } catch (NumberFormatException e) {
        // fall through to the error below
      }
    }
    throw new IllegalArgumentException("unknown scale '" + text + "': use small, medium, large or <N>x (e.g. 3x)");
  }

  double newRequestsPerDay() {
    return SMALL_NEW_REQUESTS_PER_DAY * multiplier;
  }

  double overLengthScale() {
    return multiplier <= 1 ? multiplier : Math.sqrt(multiplier);
  }
}

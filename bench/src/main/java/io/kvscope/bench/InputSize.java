package io.kvscope.bench;

import java.util.Locale;

/**
 * A target amount of generated logs ({@code 250M}, {@code 1G}, {@code 4G}) and the generator
 * scale that produces it. The generator's output grows linearly with the multiplier for ordinary
 * traffic but only with its square root for the multi-megabyte over-length prompts, so the
 * multiplier comes from a two-term fit of measured sizes (seed 1, PLAIN): 1x = 287 MB, 4x = 714 MB,
 * checked at 6.5x = 974 MB and 38x = 4,048 MB. An explicit scale ({@code 3x}) is taken as is.
 *
 * @param label what the user asked for
 * @param scale the {@code --scale} argument for {@code kvscope generate}
 */
public record InputSize(String label, String scale) {

  /** MB per unit of multiplier of ordinary traffic, and per square root for over-length prompts. */
  private static final double LINEAR_MB = 70.3;
  private static final double SQRT_MB = 216.7;
  private static final double ONE_X_MB = LINEAR_MB + SQRT_MB;

  public static InputSize parse(String text) {
    String s = text.trim().toUpperCase(Locale.ROOT);
    if (s.endsWith("X")) {
      return new InputSize(text.trim(), text.trim().toLowerCase(Locale.ROOT));
    }
    double megabytes;
    if (s.endsWith("G")) {
      megabytes = Double.parseDouble(s.substring(0, s.length() - 1)) * 1000;
    } else if (s.endsWith("M")) {
      megabytes = Double.parseDouble(s.substring(0, s.length() - 1));
    } else {
      throw new IllegalArgumentException("size '" + text + "': use e.g. 250M, 1G, 4G or a scale such as 3x");
    }
    return new InputSize(text.trim(), String.format(Locale.ROOT, "%.3fx", multiplierFor(megabytes)));
  }

  /** The multiplier whose incident is about {@code megabytes} of logs. */
  static double multiplierFor(double megabytes) {
    if (!(megabytes > 0)) {
      throw new IllegalArgumentException("size must be positive");
    }
    if (megabytes <= ONE_X_MB) {
      return megabytes / ONE_X_MB; // below 1x both parts scale linearly
    }
    // LINEAR * m + SQRT * sqrt(m) = megabytes, a quadratic in sqrt(m)
    double root = (-SQRT_MB + Math.sqrt(SQRT_MB * SQRT_MB + 4 * LINEAR_MB * megabytes)) / (2 * LINEAR_MB);
    return root * root;
  }
}

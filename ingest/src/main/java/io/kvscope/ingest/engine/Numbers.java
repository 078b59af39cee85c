package io.kvscope.ingest.engine;

/** Numbers as engines print them: {@code 4,455,808}, {@code 12.34ms}, {@code 132.20 MB}. */
public final class Numbers {

  private Numbers() {}

  /** A whole number that may carry thousands separators; {@code null} when it is not one. */
  public static Long grouped(String digits) {
    if (digits == null) {
      return null;
    }
    String plain = digits.replace(",", "").replace("_", "").strip();
    try {
      return Long.parseLong(plain);
    } catch (NumberFormatException notANumber) {
      return null;
    }
  }

  /**
   * A duration in milliseconds from a value and its printed unit. SGLang prints durations as
   * {@code 12.34ms}; a bare number is a Python duration in seconds.
   */
  public static double millis(double value, String unit) {
    if (unit == null || unit.isEmpty() || unit.equals("s")) {
      return value * 1000.0;
    }
    return switch (unit) {
      case "ms" -> value;
      case "us", "\u00b5s" -> value / 1000.0;
      default -> value * 1000.0;
    };
  }

  /** A size in MB from a value and its printed unit ({@code MB}, {@code GB}, {@code KB}). */
  public static double megabytes(double value, String unit) {
    if (unit == null) {
      return value;
    }
    return switch (unit) {
      case "GB" -> value * 1024.0;
      case "KB" -> value / 1024.0;
      default -> value;
    };
  }
}

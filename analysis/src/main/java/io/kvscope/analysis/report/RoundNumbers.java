package io.kvscope.analysis.report;

/** Round chart scales, the same in the HTML report and the workbench. */
public final class RoundNumbers {

  private RoundNumbers() {}

  /** The smallest of 1, 2, 5, 10, 20, 50, 100... at or above {@code n} (1 for anything below). */
  public static long atLeast(long n) {
    long magnitude = 1;
    while (true) {
      for (long m : new long[] {1, 2, 5}) {
        if (m * magnitude >= n) {
          return m * magnitude;
        }
      }
      magnitude *= 10;
    }
  }
}

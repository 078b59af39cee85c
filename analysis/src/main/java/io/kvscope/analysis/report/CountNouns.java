package io.kvscope.analysis.report;

/** The noun after a count or a range, the same in the reports, the workbench and the printed summary. */
public final class CountNouns {

  private CountNouns() {}

  /**
   * {@code singular} for exactly one ({@code 1 response}), its plural for any other count and for
   * every range, one included ({@code 0–1 responses}).
   */
  public static String of(long certain, long possible, String singular) {
    return certain == 1 && possible <= 1 ? singular : singular + "s";
  }
}

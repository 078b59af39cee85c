package io.kvscope.probe;

import java.util.Locale;

/** How a probe run ended, and the exit code it gives (0 pass, 1 fail, 2 could not run). */
public enum Outcome {
  PASS(0),
  FAIL(1),
  COULD_NOT_RUN(2),
  /** A dry run that could plan the test: nothing was sent, so nothing passed. */
  PLANNED(0);

  private final int exitCode;

  Outcome(int exitCode) {
    this.exitCode = exitCode;
  }

  public int exitCode() {
    return exitCode;
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}

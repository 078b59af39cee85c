package io.kvscope.probe.config;

import java.util.Locale;

/**
 * One checklist item on one node.
 *
 * @param observed the values behind the verdict, e.g. {@code 8192 < 16384}
 * @param exploitable for the pool check: true when the pool is below the context on an engine not
 *     known to be fixed (the incident's precondition), else null
 */
public record CheckResult(ConfigCheck check, Verdict verdict, String observed, Boolean exploitable) {

  /** A check's outcome. */
  public enum Verdict {
    OK,
    FAILED,
    /** No endpoint showed the fact; said apart from a fact that is wrong. */
    UNKNOWN;

    public String id() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}

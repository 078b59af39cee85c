package io.kvscope.gui.audit;

/** A check's outcome for one epoch. */
public enum Verdict {
  OK,
  FAILED,
  /**
   * Nothing showed the fact (e.g. no SGLang log line names the engine version, and no deployment
   * record covered the epoch).
   */
  UNKNOWN
}

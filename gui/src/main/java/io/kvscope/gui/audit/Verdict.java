package io.kvscope.gui.audit;

/** A check's outcome for one epoch. */
public enum Verdict {
  OK,
  FAILED,
  /** The logs did not show the fact (e.g. a Prometheus-only epoch has no version). */
  UNKNOWN
}

package io.kvscope.samples;

/** Whether the generated fleet has the bug. */
public enum FleetMode {
  /** The incident: the context raise opens a vulnerable window and leaks follow. */
  INCIDENT,
  /** Same traffic on a fixed engine with pool >= context and checksum and canary on: an audit exits clean. */
  CLEAN
}

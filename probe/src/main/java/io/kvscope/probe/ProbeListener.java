package io.kvscope.probe;

/** Where a run reports its progress (the CLI draws it on stderr when that is a terminal). */
@FunctionalInterface
public interface ProbeListener {

  ProbeListener NONE = (step, done, total) -> { };

  /** {@code done} of {@code total} units of {@code step} ("config", "fill", "probe") are through. */
  void progress(String step, int done, int total);
}

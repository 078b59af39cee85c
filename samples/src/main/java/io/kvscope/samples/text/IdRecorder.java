package io.kvscope.samples.text;

/** Told where each request-unique identifier landed: its token index in the text being built. */
@FunctionalInterface
public interface IdRecorder {
  void record(int tokenIndex, IdCategory category, String value);
}

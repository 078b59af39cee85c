package io.kvscope.samples.truth;

/** A file of the generated incident. */
public record FileTruth(String path, String format, String codec, long bytes, long rawBytes, long lines) {}

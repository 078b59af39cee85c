package io.kvscope.samples.truth;

import java.time.Instant;

/** Gateway lines delivered twice: the copies are in {@code file}, the originals in {@code originalFile}. */
public record DuplicateTruth(String file, String originalFile, Instant start, Instant end, int lines) {}

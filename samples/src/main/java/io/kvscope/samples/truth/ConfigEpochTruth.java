package io.kvscope.samples.truth;

import java.time.Instant;

/** One process lifetime of a node (true time of its {@code server_args} line) and its config. */
public record ConfigEpochTruth(String node, Instant start, String cause, String engineVersion, long contextLength,
    long poolTokens, int pageSize, boolean kvCanary, boolean kvChecksum, boolean vulnerable) {}

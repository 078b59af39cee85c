package io.kvscope.samples.truth;

import java.time.Instant;

/** A vulnerable window on one prefill node, in true UTC. */
public record WindowTruth(String kind, String node, String deployment, Instant start, Instant end, String reason,
    String closedBy) {}

package io.kvscope.samples.truth;

import java.time.Instant;

/** Lost engine log lines on one node, start/end in that node's own clock. */
public record GapTruth(String node, Instant start, Instant end, String kind, long droppedLines) {}

package io.kvscope.samples.truth;

import java.time.Instant;

/** A served request whose prefill computed far fewer tokens than the prompt had. */
public record UnderrunTruth(String requestId, String engineRid, String prefillNode, String decodeNode, Instant time,
    long promptTokens, long engineInputLen, int reservedPages, int transferredPages) {}

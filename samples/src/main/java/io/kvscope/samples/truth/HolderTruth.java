package io.kvscope.samples.truth;

import java.time.Instant;

/** A request within the recipient's reach that held a leaked fragment word for word. */
public record HolderTruth(String requestId, String tenant, Instant time) {}

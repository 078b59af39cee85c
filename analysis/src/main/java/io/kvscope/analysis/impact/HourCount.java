package io.kvscope.analysis.impact;

import java.time.Instant;

/** One hour of the timeline: leaked responses, over-length admissions and underruns that started in it. */
public record HourCount(Instant hour, long exposures, long overLengthAccepted, long prefillUnderruns, long requests) {}

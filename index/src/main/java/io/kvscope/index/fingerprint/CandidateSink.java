package io.kvscope.index.fingerprint;

import java.io.IOException;

/** Receives the join's candidates one at a time, ordered by recipient then source doc id. */
@FunctionalInterface
public interface CandidateSink {

  void accept(Candidate candidate) throws IOException;
}

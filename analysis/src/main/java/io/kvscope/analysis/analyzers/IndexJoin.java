package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.index.fingerprint.PairFilter;
import io.kvscope.model.fingerprint.BoilerplateCutoff;
import io.kvscope.model.fingerprint.FrequencyHistogram;
import java.io.IOException;

/**
 * {@link CandidatePairs#INDEX_JOIN}: the frequencies from a walk over every fingerprint term of the
 * index, the candidates from the Lucene self-join walked beside the focused pass.
 */
final class IndexJoin implements CandidatePairs {

  /** Threads the frequency walk takes at most. */
  private static final int WALK_THREADS = 4;

  @Override
  public FrequencyHistogram frequencies(AnalysisContext context, FingerprintJoin join) throws IOException {
    return walk(join);
  }

  @Override
  public Started start(AnalysisContext context, FingerprintJoin join, JoinOptions options, PairFilter filter) {
    return JoinAhead.start(join, options, filter);
  }

  /** The histogram of {@code join}'s index, from every one of its fingerprint terms. */
  static FrequencyHistogram walk(FingerprintJoin join) throws IOException {
    FrequencyHistogram histogram = BoilerplateCutoff.histogram();
    join.frequencies(histogram, Math.min(WALK_THREADS, Runtime.getRuntime().availableProcessors()));
    return histogram;
  }
}

package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.index.fingerprint.CandidateSink;
import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.index.fingerprint.JoinStats;
import io.kvscope.index.fingerprint.PairFilter;
import io.kvscope.model.fingerprint.FrequencyHistogram;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * Where the general join's candidate pairs, and the frequencies its boilerplate cut-off is learned
 * from, come from. On one machine the index's own Lucene self-join computes them
 * ({@link #INDEX_JOIN}); after the Spark job they were computed on the cluster and are read from the
 * file it wrote ({@link PairsFile}). Either way the analysis gets the same histogram and the same
 * candidates, in (recipient, source) document order, filtered by the same pair filter.
 */
public interface CandidatePairs {

  /** The index's own fingerprint self-join, walked beside the focused pass ({@link JoinAhead}). */
  CandidatePairs INDEX_JOIN = new IndexJoin();

  /**
   * The shared fingerprints of {@code join}'s index by tenant frequency, which the boilerplate
   * cut-off is learned from ({@link io.kvscope.model.fingerprint.BoilerplateCutoff}). Refuses (an
   * exception saying why) frequencies that do not belong to this analysis.
   */
  FrequencyHistogram frequencies(AnalysisContext context, FingerprintJoin join) throws IOException;

  /**
   * Begins producing the candidates of {@code join}'s index under {@code options}; a pair
   * {@code filter} refuses is never a candidate. The filter only reads, so it may be called on
   * another thread. Refuses (an exception saying why) pairs that do not belong to this analysis.
   */
  Started start(AnalysisContext context, FingerprintJoin join, JoinOptions options, PairFilter filter)
      throws IOException;

  /**
   * The runs the job verified for these candidates where the texts lie, when the analysis of
   * {@code context} may take them (refused, an exception saying why, when they are not of its
   * index and pairs); empty when the candidates are verified on the index's texts here.
   */
  default Optional<RunsFile> runs(AnalysisContext context) throws IOException {
    return Optional.empty();
  }

  /** Candidates on their way; emitted once. Closing before emitting releases what was prepared. */
  interface Started extends AutoCloseable {

    /** Streams the candidates to {@code sink} in (recipient, source) document order. */
    JoinStats emit(CandidateSink sink) throws IOException;

    /** CPU spent on threads other than the caller's (0 where there are none). */
    long walkCpuNanos();

    /** Where the pairs came from and how many were taken, for the report's parameters. */
    Map<String, Object> origin();

    @Override
    void close() throws IOException;
  }
}

package io.kvscope.analysis.analyzers;

import io.kvscope.index.fingerprint.CandidateSink;
import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.index.fingerprint.JoinStats;
import io.kvscope.index.fingerprint.OwnThread;
import io.kvscope.index.fingerprint.PairFilter;
import io.kvscope.model.fingerprint.TermFrequencyListener;
import java.io.IOException;

/**
 * The general join's walk on a thread of its own, started before the focused pass. The walk emits
 * nothing until it ends and reads only postings and the analysis' fixed columns, so it can run
 * beside the focused pass (on a second core, in its shadow) instead of after it; the candidates
 * are still emitted on the caller's thread, in the same order, so the findings are the same.
 */
final class JoinAhead implements AutoCloseable {

  private final OwnThread<FingerprintJoin.Counted> walk;
  private volatile long walkCpuNanos;
  private boolean emitted;

  private JoinAhead(FingerprintJoin join, JoinOptions options, PairFilter filter) {
    this.walk = OwnThread.start("kvscope-fingerprint-join", () -> {
      long started = CpuClock.now();
      try {
        return join.count(options, filter, TermFrequencyListener.NONE);
      } finally {
        walkCpuNanos = CpuClock.now() - started;
      }
    });
  }

  /** Starts walking; {@code filter} is then called on the walking thread, so it must only read. */
  static JoinAhead start(FingerprintJoin join, JoinOptions options, PairFilter filter) {
    return new JoinAhead(join, options, filter);
  }

  /** Waits for the walk, then streams its candidates to {@code sink} in (recipient, source) order. */
  JoinStats emit(CandidateSink sink) throws IOException {
    emitted = true;
    try (FingerprintJoin.Counted counted = walk.join()) {
      return counted.emit(sink);
    }
  }

  /** CPU the walk took on its own thread (0 until it ends). */
  long walkCpuNanos() {
    return walkCpuNanos;
  }

  /** Where the caller stopped before emitting, waits for the walk and deletes what it spilled. */
  @Override
  public void close() throws IOException {
    if (!emitted) {
      emitted = true;
      walk.join().close();
    }
  }
}

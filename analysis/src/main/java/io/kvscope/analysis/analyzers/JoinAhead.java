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
final class JoinAhead implements CandidatePairs.Started {

  private final OwnThread<FingerprintJoin.Counted> walk;
  private final java.util.Map<String, Object> origin;
  private volatile long walkCpuNanos;
  private boolean emitted;

  private JoinAhead(FingerprintJoin join, JoinOptions options, PairFilter filter, java.util.Map<String, Object> origin) {
    this.origin = origin;
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
    return new JoinAhead(join, options, filter, java.util.Map.of("from", "index join"));
  }

  /** As {@link #start(FingerprintJoin, JoinOptions, PairFilter)} where other pairs were offered: {@code why} they were not taken. */
  static JoinAhead instead(FingerprintJoin join, JoinOptions options, PairFilter filter, String why) {
    return new JoinAhead(join, options, filter, java.util.Map.of("from", "index join", "why", why));
  }

  /** Waits for the walk, then streams its candidates to {@code sink} in (recipient, source) order. */
  @Override
  public JoinStats emit(CandidateSink sink) throws IOException {
    emitted = true;
    try (FingerprintJoin.Counted counted = walk.join()) {
      return counted.emit(sink);
    }
  }

  /** CPU the walk took on its own thread (0 until it ends). */
  @Override
  public long walkCpuNanos() {
    return walkCpuNanos;
  }

  @Override
  public java.util.Map<String, Object> origin() {
    return origin;
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

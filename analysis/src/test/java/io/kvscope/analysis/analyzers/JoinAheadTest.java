package io.kvscope.analysis.analyzers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.index.IndexSearch;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.index.fingerprint.PairFilter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The general join walked on its own thread: the same candidates in the same order as a join run
 * on the caller's thread, and a failure on the walking thread surfaces where the caller emits.
 * On {@link OnePassage}: each of three replies is a candidate of the others.
 */
class JoinAheadTest {

  @TempDir Path tmp;

  private IndexSearch search;
  private FingerprintJoin join;

  @BeforeEach
  void index() throws Exception {
    OnePassage one = OnePassage.index(tmp.resolve("index"));
    search = one.search();
    join = one.join();
  }

  @AfterEach
  void close() throws Exception {
    search.close();
  }

  @Test
  void candidatesWalkedAheadAreThoseOfARunOnTheCallersThreadInTheSameOrder() throws Exception {
    JoinOptions options = JoinOptions.defaults().withIncludeSameTenant(true);
    List<Candidate> onThisThread = new ArrayList<>();
    join.run(options, PairFilter.ALL, onThisThread::add);

    List<Candidate> walkedAhead = new ArrayList<>();
    try (JoinAhead ahead = JoinAhead.start(join, options, PairFilter.ALL)) {
      assertThat(ahead.emit(walkedAhead::add).candidates()).isEqualTo(6);
      assertThat(ahead.walkCpuNanos()).isPositive();
    }

    assertThat(onThisThread).hasSize(6);
    assertThat(walkedAhead).isEqualTo(onThisThread);
  }

  @Test
  void aFailureWhileWalkingIsThrownWhereTheCallerEmits() throws Exception {
    try (JoinAhead ahead = JoinAhead.start(join, JoinOptions.defaults(), (recipient, source) -> {
      throw new IllegalStateException("filter failed on doc " + recipient);
    })) {
      assertThatThrownBy(() -> ahead.emit(candidate -> {}))
          .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("filter failed");
    }
  }
}

package io.kvscope.analysis.analyzers;

import static io.kvscope.analysis.TestIndex.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.TestIndex;
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
 * Three tenants' replies repeat one passage, so each reply is a candidate of the others.
 */
class JoinAheadTest {

  private static final String PASSAGE = "The quarterly ledger for the Halvorsen account closed at four hundred"
      + " and twelve thousand crowns after the late transfer from the Bergen office was booked twice and reversed"
      + " on the second of March by the night clerk";

  @TempDir Path tmp;

  private IndexSearch search;
  private FingerprintJoin join;

  @BeforeEach
  void index() throws Exception {
    TestIndex test = new TestIndex(tmp.resolve("index"));
    String[] tenants = {"a", "b", "c"};
    for (int i = 0; i < tenants.length; i++) {
      test.servedOn(request("r" + i, tenants[i], "2026-03-02T10:0" + i + ":00Z", 40, 200)
          .promptText("Question " + i + " of tenant " + tenants[i]).responseText("Note: " + PASSAGE).build(), "decode-0");
    }
    search = test.open();
    RequestColumns columns = RequestColumns.load(new AnalysisContext(search, AnalysisOptions.defaults()));
    join = new FingerprintJoin(search.reader(), doc -> columns.isRequest(doc) ? columns.tenant(doc) : -1);
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

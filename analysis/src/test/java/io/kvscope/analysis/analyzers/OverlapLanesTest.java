package io.kvscope.analysis.analyzers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.index.fingerprint.CandidateSink;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The lanes under contention: work handed out to four threads, the early handouts made the slowest
 * so that later ones finish first, and the findings must still come back in the order handed out,
 * as one thread gives them. The lanes here judge nothing: each recipient's finding is named after
 * it and after the candidates it was handed, so any loss, repeat or reordering shows.
 */
class OverlapLanesTest {

  /** A lane that lists one finding per recipient it was handed, after a pause that shrinks as work goes on. */
  private static final class Listing implements OverlapLanes.Lane {
    final Set<Thread> ranOn;
    final AtomicInteger started;
    int recipient = -1;
    int candidates;
    final List<OverlapLanes.Emitted> found = new ArrayList<>();

    Listing(Set<Thread> ranOn, AtomicInteger started) {
      this.ranOn = ranOn;
      this.started = started;
    }

    @Override
    public void accept(Candidate candidate) {
      if (candidate.recipientDoc() != recipient) {
        judge();
        recipient = candidate.recipientDoc();
      }
      candidates++;
    }

    /** What the focused pass does: one recipient, judged at once. */
    void focusOn(int doc) {
      judge();
      recipient = doc;
      candidates = 1;
      judge();
    }

    private void judge() {
      if (recipient >= 0) {
        found.add(new OverlapLanes.Emitted(recipient, finding(recipient, candidates)));
      }
      recipient = -1;
      candidates = 0;
    }

    @Override
    public List<OverlapLanes.Emitted> judged() {
      ranOn.add(Thread.currentThread());
      started.incrementAndGet();
      // The first handouts wait longest: they are taken back after later ones are done.
      LockSupport.parkNanos(Math.max(0, 2_000_000 - 20_000L * started.get()));
      judge();
      List<OverlapLanes.Emitted> taken = new ArrayList<>(found);
      found.clear();
      return taken;
    }
  }

  private static Finding finding(int recipient, int candidates) {
    return new Finding("overlap:" + recipient + ":" + candidates, FindingKind.CROSS_TENANT_OVERLAP, Confidence.SUSPECT,
        "request-" + recipient, null, "tenant", null, null, null, List.of(), Map.of());
  }

  /** 40 focused recipients, then 400 recipients of the general join with 1 to 300 candidates each. */
  private static List<String> run(int threads, Set<Thread> ranOn, int[] mostOut) throws IOException {
    List<String> out = new ArrayList<>();
    AtomicInteger started = new AtomicInteger();
    try (OverlapLanes<Listing> lanes = new OverlapLanes<>(threads, () -> new Listing(ranOn, started),
        (doc, finding) -> {
          out.add(doc + " " + finding.id());
          mostOut[0] = Math.max(mostOut[0], started.get() - out.size());
        })) {
      for (int doc = 0; doc < 40; doc++) {
        int focused = doc;
        lanes.focused(lane -> lane.focusOn(focused));
      }
      CandidateSink general = lanes.general();
      for (int doc = 1_000; doc < 1_400; doc++) {
        for (int source = 0; source < 1 + doc * 37 % 300; source++) {
          general.accept(new Candidate(doc, 5_000 + source, 1, 0));
        }
      }
      lanes.finish();
    }
    return out;
  }

  @Test
  void findingsComeBackInTheOrderHandedOutWhicheverLaneEndsFirst() throws IOException {
    Set<Thread> oneThread = ConcurrentHashMap.newKeySet();
    List<String> expected = run(1, oneThread, new int[1]);
    assertThat(expected).hasSize(440);
    assertThat(expected.getFirst()).isEqualTo("0 overlap:0:1");
    assertThat(expected.getLast()).isEqualTo("1399 overlap:1399:" + (1 + 1_399 * 37 % 300));
    assertThat(oneThread).as("one lane runs on the caller's thread").containsExactly(Thread.currentThread());

    Set<Thread> four = ConcurrentHashMap.newKeySet();
    assertThat(run(4, four, new int[1])).isEqualTo(expected);
    assertThat(four).as("threads the work ran on").hasSize(4).doesNotContain(Thread.currentThread());
  }

  @Test
  void atMostFourHandoutsPerLaneAreOutAtOnce() throws IOException {
    int[] mostOut = new int[1];
    run(2, ConcurrentHashMap.newKeySet(), mostOut);
    // Findings, not handouts, are counted back: a handout of many recipients is out until its last is.
    assertThat(mostOut[0]).isPositive().isLessThanOrEqualTo(OverlapLanes.HANDOUTS_PER_LANE * 2);
  }

  @Test
  void threadsAskedAreTakenAndTheAutomaticChoiceKeepsSmallIncidentsOnOne() {
    assertThat(OverlapLanes.count(3, 10)).isEqualTo(3);
    assertThat(OverlapLanes.count(AnalysisOptions.AUTOMATIC_THREADS, OverlapLanes.RECIPIENTS_FOR_MORE_LANES - 1))
        .isEqualTo(1);
    assertThat(OverlapLanes.count(AnalysisOptions.AUTOMATIC_THREADS, OverlapLanes.RECIPIENTS_FOR_MORE_LANES))
        .isEqualTo(Math.min(Runtime.getRuntime().availableProcessors(), OverlapLanes.MOST_AUTOMATIC_LANES));
  }

  @Test
  void aLaneThatFailsFailsTheAnalysisWithItsOwnError() {
    OverlapLanes.Lane failing = new OverlapLanes.Lane() {
      @Override
      public void accept(Candidate candidate) {}

      @Override
      public List<OverlapLanes.Emitted> judged() throws IOException {
        throw new IOException("segment _3 is corrupt");
      }
    };
    assertThatThrownBy(() -> {
      try (OverlapLanes<OverlapLanes.Lane> lanes = new OverlapLanes<>(3, () -> failing, (doc, finding) -> {})) {
        for (int i = 0; i < 100; i++) {
          lanes.focused(lane -> {});
        }
        lanes.finish();
      }
    }).isInstanceOf(IOException.class).hasMessage("segment _3 is corrupt");
  }
}

package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.index.fingerprint.CandidateSink;
import io.kvscope.index.fingerprint.OwnThread;
import io.kvscope.model.finding.Finding;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The overlap's recipients judged on several threads, each a lane with state of its own, and their
 * findings handed on in the order one thread would have emitted them.
 *
 * <p>Why a recipient's findings do not depend on which lane judged it, nor on what was judged
 * before: the columns, the mechanisms, the reach, the verifier and the rules are fixed once built,
 * and Lucene's reader may be read from many threads (each stored-fields read makes its own reader).
 * What {@link OverlapRecipients} keeps is the current recipient's verified runs, cleared when it is
 * judged; the focused pass's {@code coveredTokens} are those runs, read within the same recipient's
 * work. {@link RememberedHolders} replays the index's own answer in the index's order,
 * {@link TokenizedTextCache} hands back the text it would read, {@link StockPhrases} remembers a pure
 * lookup, and {@link LuceneTextIndex} with its {@link ExactPhrases} only keeps enumerations between
 * lookups: each answers the same whatever was asked before, so each lane has its own (none of them
 * is for concurrent use), and its own {@link IndexVerification} over its texts; the job's
 * {@link RunsFile}, when there is one, is loaded before the lanes start and only read by them. Only the counts of what they saved depend on what a lane saw before:
 * {@code holder_lookups}, {@code holder_lookups_remembered}, {@code stock_phrase_lookups},
 * {@code source_texts_read} and {@code source_texts_reused} differ with more than one lane (and
 * between two runs of several lanes); every other count is a sum over recipients, summed over lanes.
 *
 * <p>What does cross recipients stays on the caller's thread: {@link ReplyCopyFindings} holds the
 * findings of a request and its reply copies (separate recipients) until all are read, keeping the
 * surer and, of two as sure, the first seen; the ambiguous-room note on its output is a function of
 * the finding. So each lane lists its findings, and the caller feeds them in handout order to the
 * one {@link RecipientFindings} given here, as one thread would have.
 *
 * <p>Work is handed out as it comes (the focused recipients first, one each: they are the heaviest;
 * then the general join's candidates, whole recipients at a time) and results are taken back in the
 * order handed out; at most {@link #HANDOUTS_PER_LANE} per lane are out at once, so memory stays
 * bounded whatever the number of candidates. With one lane everything runs on the caller's thread.
 */
final class OverlapLanes<L extends OverlapLanes.Lane> implements AutoCloseable {

  /**
   * Candidates handed to a lane at once, at least (whole recipients). Neighbours share sources, so a
   * lane's caches serve them best handed out in long runs (bench/README.md, "The overlap's
   * recipients on every core").
   */
  static final int CANDIDATES_PER_HANDOUT = 2_048;
  /** Handouts given out and not yet taken back, per lane, at most. */
  static final int HANDOUTS_PER_LANE = 4;

  /**
   * Responses examined from which the automatic choice takes more than one lane. Below it a lane per
   * core cost more CPU (each lane's caches miss what another's hold) and saved no time on the
   * incidents measured (bench/README.md, "The overlap's recipients on every core").
   */
  static final int RECIPIENTS_FOR_MORE_LANES = 50_000;
  /** Lanes the automatic choice takes at most: each holds caches of its own. */
  static final int MOST_AUTOMATIC_LANES = 8;

  /**
   * The lanes for {@code threads} asked; {@link AnalysisOptions#AUTOMATIC_THREADS}: one per core,
   * up to {@link #MOST_AUTOMATIC_LANES}, for {@link #RECIPIENTS_FOR_MORE_LANES} responses or more.
   */
  static int count(int threads, long recipients) {
    if (threads != AnalysisOptions.AUTOMATIC_THREADS) {
      return threads;
    }
    return recipients < RECIPIENTS_FOR_MORE_LANES ? 1
        : Math.min(Runtime.getRuntime().availableProcessors(), MOST_AUTOMATIC_LANES);
  }

  /** A lane as the handout sees it: it takes candidates, and judges what it was handed. */
  interface Lane {

    /** One candidate of the recipient under way, or the first of the next. */
    void accept(Candidate candidate) throws IOException;

    /** Judges the recipient under way, then gives the findings listed since the last call, in order. */
    List<Emitted> judged() throws IOException;
  }

  /** What a lane does with one handout; the lane's recipient under way is judged after it. */
  @FunctionalInterface
  interface Work<L> {
    void run(L lane) throws IOException;
  }

  /**
   * A lane of the overlap's recipients: its own index lookups, caches and recipients, built for it
   * alone. Its candidates' runs come from {@code onIndex} (verified with its own texts) for the
   * focused pass and from {@code general} for the general join: the same, or the job's runs file,
   * which every lane only reads.
   */
  record RecipientsLane(LuceneTextIndex text, RememberedHolders remembered, StockPhrases stock, PassageGatherer gatherer,
      TokenizedTextCache sourceTexts, VerifiedRuns onIndex, VerifiedRuns general, OverlapRecipients recipients,
      Found found) implements Lane {

    /** A candidate of the general join. */
    @Override
    public void accept(Candidate candidate) throws IOException {
      recipients.accept(candidate, general);
    }

    @Override
    public List<Emitted> judged() throws IOException {
      recipients.finish();
      return found.take();
    }
  }

  /** A finding on the response of {@code recipientDoc}, as a lane's recipients emitted it. */
  record Emitted(int recipientDoc, Finding finding) {}

  /** A lane's findings, in the order its recipients emitted them, until taken. */
  static final class Found implements RecipientFindings {
    private List<Emitted> found = new ArrayList<>();

    @Override
    public void accept(int recipientDoc, Finding finding) {
      found.add(new Emitted(recipientDoc, finding));
    }

    List<Emitted> take() {
      List<Emitted> taken = found;
      found = new ArrayList<>();
      return taken;
    }
  }

  private final List<L> lanes = new ArrayList<>();
  private final BlockingQueue<L> idle;
  /** Null with one lane: then every handout runs on the caller's thread. */
  private final ExecutorService threads;
  private final RecipientFindings out;
  private final Deque<Future<List<Emitted>>> outstanding = new ArrayDeque<>();
  private final LongAdder focusedCpuElsewhere = new LongAdder();
  private final LongAdder generalCpuElsewhere = new LongAdder();
  private List<Candidate> candidates = new ArrayList<>();

  /**
   * @param count lanes (threads); 1 runs everything on the caller's thread
   * @param newLane builds one lane's state
   * @param out where the findings go, in the one-thread order, on the caller's thread
   */
  OverlapLanes(int count, Supplier<L> newLane, RecipientFindings out) {
    if (count < 1) {
      throw new IllegalArgumentException("an analysis needs at least one thread, was " + count);
    }
    this.out = out;
    this.idle = new ArrayBlockingQueue<>(count);
    for (int i = 0; i < count; i++) {
      lanes.add(newLane.get());
    }
    idle.addAll(lanes);
    AtomicInteger named = new AtomicInteger();
    this.threads = count == 1 ? null : Executors.newFixedThreadPool(count,
        work -> Thread.ofPlatform().name("kvscope-overlap-lane-" + named.incrementAndGet()).daemon().unstarted(work));
  }

  /** Hands out one focused recipient's work. */
  void focused(Work<L> work) throws IOException {
    handOut(work, focusedCpuElsewhere);
  }

  /** The general join's sink: candidates in (recipient, source) order, handed out whole recipients at a time. */
  CandidateSink general() {
    return candidate -> {
      if (candidates.size() >= CANDIDATES_PER_HANDOUT && candidate.recipientDoc() != candidates.getLast().recipientDoc()) {
        handOutCandidates();
      }
      candidates.add(candidate);
    };
  }

  /** Hands out what is left, waits for every lane and hands on the last findings. */
  void finish() throws IOException {
    if (!candidates.isEmpty()) {
      handOutCandidates();
    }
    while (!outstanding.isEmpty()) {
      takeBackOldest();
    }
  }

  private void handOutCandidates() throws IOException {
    List<Candidate> handed = candidates;
    candidates = new ArrayList<>();
    handOut(lane -> {
      for (Candidate c : handed) {
        lane.accept(c);
      }
    }, generalCpuElsewhere);
  }

  private void handOut(Work<L> work, LongAdder cpuElsewhere) throws IOException {
    if (threads == null) {
      hand(work, lanes.getFirst()).forEach(e -> out.accept(e.recipientDoc(), e.finding()));
      return;
    }
    outstanding.add(threads.submit(() -> {
      L lane = idle.take(); // never waits: as many lanes as threads
      try {
        long started = CpuClock.now();
        List<Emitted> found = hand(work, lane);
        cpuElsewhere.add(CpuClock.now() - started);
        return found;
      } finally {
        idle.add(lane);
      }
    }));
    while (!outstanding.isEmpty()
        && (outstanding.size() > HANDOUTS_PER_LANE * lanes.size() || outstanding.getFirst().isDone())) {
      takeBackOldest();
    }
  }

  private List<Emitted> hand(Work<L> work, L lane) throws IOException {
    work.run(lane);
    return lane.judged();
  }

  private void takeBackOldest() throws IOException {
    OwnThread.resultOf(outstanding.removeFirst()).forEach(e -> out.accept(e.recipientDoc(), e.finding()));
  }

  /** A count summed over the lanes (read once {@link #finish()} returned). */
  long sum(ToLongFunction<L> count) {
    return lanes.stream().mapToLong(count).sum();
  }

  /** Counts by name summed over the lanes, in name order. */
  Map<String, Long> sumByName(Function<L, Map<String, Long>> counts) {
    Map<String, Long> sum = new TreeMap<>();
    lanes.forEach(lane -> counts.apply(lane).forEach((name, n) -> sum.merge(name, n, Long::sum)));
    return sum;
  }

  /** CPU the focused recipients took on the lanes' own threads (0 with one lane: it is the caller's). */
  long focusedCpuElsewhere() {
    return focusedCpuElsewhere.sum();
  }

  /** CPU the general join's candidates took on the lanes' own threads (0 with one lane). */
  long generalCpuElsewhere() {
    return generalCpuElsewhere.sum();
  }

  /**
   * Stops the lanes. After a failure, what was not started is dropped and what runs is left to end
   * on its own: an interrupt could close a file channel the index reads through.
   */
  @Override
  public void close() {
    if (threads == null) {
      return;
    }
    outstanding.forEach(f -> f.cancel(false));
    outstanding.clear();
    threads.shutdown();
    try {
      threads.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

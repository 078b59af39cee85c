package io.kvscope.samples.out;

import io.kvscope.samples.fleet.Epoch;
import io.kvscope.samples.fleet.Fleet;
import io.kvscope.samples.fleet.NodeSpec;
import io.kvscope.samples.fleet.NodeTimeline;
import io.kvscope.samples.random.Rng;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * One node's SGLang log. Lines are stamped with the node's own (possibly skewed) clock and written
 * in that clock's order. Besides request lines it writes each epoch's startup banner and the
 * periodic health-check access lines, and it drops whatever falls into the node's lost hours.
 *
 * <p>The prefix is SGLang's {@code [%(asctime)s{prefix}] } with {@code datefmt="%Y-%m-%d %H:%M:%S"}:
 * no milliseconds. Tokenizer-manager and HTTP lines have no rank tag; a scheduler process tags its
 * lines {@code TPn} when the node runs tensor parallel ({@code run_scheduler_process}: no DP tag
 * without data parallelism). A line only rank 0 writes goes through {@link #scheduler}; one every
 * rank writes (memory pool, weight loading, per-rank failure polls) through {@link #everyRank}.
 */
final class EngineLog {

  /** Renders the message part of one line (after the {@code [time ...] } prefix). */
  @FunctionalInterface
  interface Message {
    void render(StringBuilder sb);
  }

  /** Renders the message of one rank's copy of a line every rank writes. */
  @FunctionalInterface
  interface RankMessage {
    void render(StringBuilder sb, int rank);
  }

  /** @param rank the {@code TPn} tag, or {@link #NO_TAG} */
  private record Pending(long local, long seq, int rank, Message message) {}

  private static final int NO_TAG = -1;

  private static final long HEALTH_EVERY_MS = 300_000L;

  private final NodeTimeline timeline;
  private final NodeSpec node;
  private final OutputFile file;
  private final List<Fleet.Gap> gaps;
  private final Rng rng;
  private final PriorityQueue<Pending> pending =
      new PriorityQueue<>(Comparator.comparingLong(Pending::local).thenComparingLong(Pending::seq));
  private final StringBuilder sb = new StringBuilder(1024);
  private byte[] bytes = new byte[4096];
  private long seq;
  private int nextEpoch;
  private long nextHealth = Long.MAX_VALUE;
  private int probePort;
  private long dropped;

  EngineLog(NodeTimeline timeline, OutputFile file, List<Fleet.Gap> gaps, long seed) {
    this.timeline = timeline;
    this.node = timeline.node();
    this.file = file;
    this.gaps = gaps.stream().filter(g -> g.node().equals(node.name())).toList();
    this.rng = Rng.derive(seed, Rng.key("engine-log-" + node.name()));
  }

  NodeSpec node() {
    return node;
  }

  /** A tokenizer-manager or HTTP line: {@code [time] message}. */
  void tokenizer(long trueTime, Message m) {
    pending.add(new Pending(node.localTime(trueTime), seq++, NO_TAG, m));
  }

  /** A line the scheduler writes on rank 0 only: {@code [time TP0] message} (no tag without TP). */
  void scheduler(long trueTime, Message m) {
    pending.add(new Pending(node.localTime(trueTime), seq++, tensorParallel(trueTime) ? 0 : NO_TAG, m));
  }

  /** A line every tensor-parallel rank writes, once per rank: {@code [time TPn] message}. */
  void everyRank(long trueTime, RankMessage m) {
    int ranks = timeline.at(trueTime).config().tpSize();
    if (ranks <= 1) {
      pending.add(new Pending(node.localTime(trueTime), seq++, NO_TAG, sb -> m.render(sb, 0)));
      return;
    }
    for (int rank = 0; rank < ranks; rank++) {
      int r = rank;
      pending.add(new Pending(node.localTime(trueTime), seq++, r, sb -> m.render(sb, r)));
    }
  }

  private boolean tensorParallel(long trueTime) {
    return timeline.at(trueTime).config().tpSize() > 1;
  }

  /** Writes every line stamped before true time {@code watermark}. */
  void advance(long watermark) throws IOException {
    background(watermark);
    long local = node.localTime(watermark);
    while (!pending.isEmpty() && pending.peek().local() < local) {
      write(pending.poll());
    }
  }

  void finish(long end) throws IOException {
    background(end);
    while (!pending.isEmpty()) {
      write(pending.poll());
    }
    file.close();
  }

  long droppedLines() {
    return dropped;
  }

  /** Adds banners and health checks due before {@code watermark}. */
  private void background(long watermark) {
    List<Epoch> epochs = timeline.epochs();
    while (true) {
      long nextBanner = nextEpoch < epochs.size() ? epochs.get(nextEpoch).start() : Long.MAX_VALUE;
      long next = Math.min(nextBanner, nextHealth);
      if (next >= watermark) {
        return;
      }
      if (nextBanner <= nextHealth) {
        Epoch e = epochs.get(nextEpoch++);
        StartupBanner.schedule(this, e, rng);
        nextHealth = e.readyAt() + 1_000 + rng.nextInt((int) (HEALTH_EVERY_MS / 2));
        probePort = 32_768 + rng.nextInt(20_000);
      } else {
        long t = nextHealth;
        long nextStart = nextEpoch < epochs.size() ? epochs.get(nextEpoch).start() : Long.MAX_VALUE;
        if (t < nextStart - 2_000) {
          // The kubelet probes on a fixed period from a new ephemeral port each time.
          probePort = probePort >= 60_990 ? 32_768 : probePort + 1 + rng.nextInt(6);
          int port = probePort;
          tokenizer(t, s -> s.append("INFO:     10.20.0.1:").append(port).append(" - \"GET /health HTTP/1.1\" 200 OK"));
          nextHealth = t + HEALTH_EVERY_MS + rng.nextInt(40);
        } else {
          nextHealth = Long.MAX_VALUE; // the process is going down; the next banner re-arms it
        }
      }
    }
  }

  private void write(Pending p) throws IOException {
    for (Fleet.Gap g : gaps) {
      if (p.local() >= g.start() && p.local() < g.end()) {
        dropped++;
        return;
      }
    }
    sb.setLength(0);
    sb.append('[');
    Clock.appendLog(sb, p.local());
    if (p.rank() != NO_TAG) {
      sb.append(" TP").append(p.rank());
    }
    sb.append("] ");
    p.message().render(sb);
    sb.append('\n');
    int n = sb.length();
    if (bytes.length < n) {
      bytes = new byte[Math.max(n, bytes.length * 2)];
    }
    for (int i = 0; i < n; i++) {
      bytes[i] = (byte) sb.charAt(i);
    }
    file.line(bytes, n);
  }
}

package io.kvscope.ingest.engine;

import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.LineReader;
import io.kvscope.ingest.NodeAddresses;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.engine.pyrepr.PyReprException;
import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One engine log file, read top to bottom. This is the part every engine shares: per line it drops
 * terminal colours, reads the engine's {@link #prefix}, hands the message to the engine's
 * {@link #readMessage}, counts the line toward its node-hour, and then emits, quarantines or skips
 * by the {@link LineResult}. It holds the state every engine file has: the last timestamp (lines
 * without a prefix are taken to be written then), the open config epoch and the open hours.
 * Subclasses hold only their engine's grammar and whatever that grammar remembers (e.g. the role).
 */
public abstract class EngineLogReader {

  /**
   * Faults and rejections: every rank logs them alike, so each is kept once per node within a
   * window of recent facts. A request's own lifecycle lines are written once and are all kept.
   */
  private static final Set<EngineEvent.Kind> PER_RANK = EnumSet.of(EngineEvent.Kind.REJECTED,
      EngineEvent.Kind.BOOTSTRAP_FAILED, EngineEvent.Kind.TRANSFER_FAILED,
      EngineEvent.Kind.CANARY_VIOLATION, EngineEvent.Kind.CHECKSUM_MISMATCH, EngineEvent.Kind.POOL_FULL);
  private static final int RECENT = 4096;

  private final InputFile file;
  private final String node;
  private final RecordSink sink;
  private final EpochTracker epochs;
  private final ActivityCounter activity;
  private final RecentKeys recent = new RecentKeys(RECENT);
  private Long lastTime;

  /** @param source what the file's config epochs name as their source, e.g. {@code vllm-log} */
  protected EngineLogReader(InputFile file, String node, String source, RecordSink sink) {
    this.file = file;
    this.node = node;
    this.sink = sink;
    this.epochs = new EpochTracker(node, source, file.name(), sink);
    this.activity = new ActivityCounter(node, file.name(), sink);
  }

  /**
   * The line's prefix, or {@code null} when it has none. Called once per non-blank line, in order,
   * with terminal colours already removed.
   */
  protected abstract LinePrefix prefix(String line);

  /**
   * What the message starting at {@code at} is. {@link #lastTime()} is already this line's time, or
   * for a line without a prefix the last time before it ({@code null} when there was none yet). A
   * {@link PyReprException} makes the line malformed.
   */
  protected abstract LineResult readMessage(String line, int at, long number);

  /** The node's role as far as the file has told it; asked after each line is read. */
  protected abstract NodeRole role();

  protected final String node() {
    return node;
  }

  /** The file's name as records and errors cite it. */
  protected final String fileName() {
    return file.name();
  }

  protected final EpochTracker epochs() {
    return epochs;
  }

  /** The time of the last line with a prefix, or {@code null} before the first one. */
  protected final Long lastTime() {
    return lastTime;
  }

  /**
   * The node's own address from its startup arguments: {@code host:port} is what a Prometheus
   * {@code instance} label and a peer's {@code bootstrap_host} call it. A wildcard or loopback host
   * ({@code 0.0.0.0}, the usual default) names no machine and is not recorded.
   */
  protected final void address(String host, Long port, long line) {
    if (!NodeAddresses.concrete(host)) {
      return;
    }
    String hostPort = NodeAddresses.hostPort(host, port);
    if (hostPort != null) {
      sink.accept(new NodeAlias(node, hostPort, AliasOrigin.ENGINE_ARGS, file.name(), line));
    }
    sink.accept(new NodeAlias(node, NodeAddresses.hostOf(host), AliasOrigin.ENGINE_ARGS, file.name(), line));
  }

  /** For a line that needs a time before the file has given one. */
  protected static LineResult noTime() {
    return LineResult.malformed("no timestamp on or before this line, so its time is unknown");
  }

  /** Reads the whole file, then emits the open epoch and the open hours. */
  final void run() throws IOException {
    try (LineReader lines = file.lines(sink)) {
      String line;
      while ((line = lines.next()) != null) {
        line(line, lines.lineNumber());
      }
    }
    epochs.finish();
    activity.finish();
  }

  private void line(String raw, long number) {
    if (raw.isBlank()) {
      sink.skipped();
      return;
    }
    String line = Ansi.strip(raw);
    Long time = null;
    int at = 0;
    switch (prefix(line)) {
      case null -> { } // a continuation: it counts toward the hour of the last timestamped line
      case LinePrefix.Impossible impossible -> {
        activity.count(null, number, role());
        malformed(number, impossible.reason(), raw);
        return;
      }
      case LinePrefix.Timed timed -> {
        time = timed.time();
        at = timed.messageStart();
        lastTime = time;
      }
    }
    LineResult result;
    try {
      result = readMessage(line, at, number);
    } catch (PyReprException garbled) {
      result = LineResult.malformed("cannot read the line's Python values: " + garbled.getMessage());
    } catch (RuntimeException unreadable) {
      // A value no reader expects (a number beyond 64 bits, say) costs this line, never the file.
      result = LineResult.malformed(unreadableValue(unreadable));
    }
    // The role is asked only now: a startup line sets the role its own line counts under.
    activity.count(time, number, role());
    switch (result) {
      case LineResult.Unknown u -> sink.skipped();
      case LineResult.Known k -> { }
      case LineResult.Malformed m -> malformed(number, m.reason(), raw);
      case LineResult.Events e -> {
        try {
          emit(e.events());
        } catch (IllegalArgumentException impossible) {
          malformed(number, unreadableValue(impossible), raw);
        }
      }
    }
  }

  /** Why a line's values could not be read, in words that never quote the line. */
  private static String unreadableValue(RuntimeException e) {
    return e instanceof NumberFormatException ? "a number on this line is too large or malformed"
        : "a value on this line cannot be read (" + io.kvscope.ingest.FailureWords.of(e) + ")";
  }

  private void emit(List<EventBuilder> events) {
    for (EventBuilder e : events) {
      if (PER_RANK.contains(e.kind()) && !recent.firstTime(e.dedupKey())) {
        continue;
      }
      sink.accept(e.build());
    }
  }

  private void malformed(long number, String reason, String raw) {
    sink.malformed(new BadInput(file.name(), number, reason), raw);
  }
}

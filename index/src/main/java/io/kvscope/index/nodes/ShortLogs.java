package io.kvscope.index.nodes;

import io.kvscope.ingest.Printable;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeActivity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which logged starts are no restart of their node. A restart ends the log the node was writing (or
 * goes on in the same file); a file of a few lines whose start falls inside the hours another,
 * longer log of the same node goes on writing is a fragment, a stray copy or a forgery. Read as a
 * restart it would end a vulnerable window that the node's own log keeps open, so its start is set
 * aside, and what was assumed is said wherever the window is. Spans are by the hour, as
 * {@link NodeActivity} counts a file's lines: a start in the longer log's last hour is still read as
 * a restart.
 */
public final class ShortLogs {

  /** A file with more lines than this is never a fragment. */
  public static final long MAX_LINES = 20;

  /**
   * One engine log file's lines and hours (node clock).
   *
   * @param firstHour the start of the first hour it wrote in; {@code lastHour} of the last
   */
  public record LogFile(String node, String name, long lines, long firstHour, long lastHour) {

    LogFile plus(NodeActivity hour) {
      return new LogFile(node, name, lines + hour.lines(), Math.min(firstHour, hour.hourStart()),
          Math.max(lastHour, hour.hourStart()));
    }

    /** Whether this log wrote in an hour at or before {@code time}'s and in one after it. */
    boolean goesOnAround(long time) {
      long hour = Math.floorDiv(time, NodeActivity.HOUR_MS) * NodeActivity.HOUR_MS;
      return firstHour <= hour && lastHour > hour;
    }
  }

  /**
   * A start read as no restart.
   *
   * @param epoch the epoch its file logged, as the log gave it (node clock)
   * @param why what was assumed, in words: the file, its lines, and the log it falls inside
   */
  public record SetAside(ConfigEpoch epoch, String why) {}

  private static final ShortLogs NONE = new ShortLogs(Map.of());

  /** Files by report node name, then by file name. */
  private final Map<String, Map<String, LogFile>> byNode;

  private ShortLogs(Map<String, Map<String, LogFile>> byNode) {
    this.byNode = byNode;
  }

  /** No file spans known: every logged start is a restart. */
  public static ShortLogs none() {
    return NONE;
  }

  /** The files {@code hours} were counted from, each under its node's report name. */
  public static ShortLogs of(Collection<NodeActivity> hours, NodeIdentity identity) {
    Map<String, Map<String, LogFile>> byNode = new TreeMap<>();
    for (NodeActivity hour : hours) {
      String node = identity.canonical(hour.node());
      byNode.computeIfAbsent(node, n -> new TreeMap<>()).merge(String.valueOf(hour.sourceFile()),
          new LogFile(node, String.valueOf(hour.sourceFile()), hour.lines(), hour.hourStart(), hour.hourStart()),
          (a, b) -> a.plus(hour));
    }
    return new ShortLogs(byNode);
  }

  /**
   * Why the start {@code epoch} logged (its node under its report name {@code node}) is no restart,
   * or null when it may be one: a Prometheus snapshot is never a start, and a file of more than
   * {@link #MAX_LINES} lines, or one no longer log goes on around, is a real log.
   */
  public SetAside setAside(String node, ConfigEpoch epoch) {
    Map<String, LogFile> files = byNode.get(node);
    if (epoch.fromMetrics() || files == null) {
      return null;
    }
    LogFile own = files.get(String.valueOf(epoch.sourceFile()));
    if (own == null || own.lines() > MAX_LINES) {
      return null;
    }
    LogFile around = files.values().stream()
        .filter(f -> f.lines() > own.lines() && f.goesOnAround(epoch.start()))
        .max(Comparator.comparingLong(LogFile::lines)).orElse(null);
    if (around == null) {
      return null;
    }
    return new SetAside(epoch, Printable.text(own.name()) + " (" + own.lines() + " lines) logs a start of "
        + Printable.text(node) + " at " + Instant.ofEpochMilli(epoch.start()) + " (node clock) while "
        + Printable.text(around.name()) + " (" + around.lines() + " lines) goes on logging the node from "
        + Instant.ofEpochMilli(around.firstHour()) + " to the hour of " + Instant.ofEpochMilli(around.lastHour())
        + ": assumed no restart, its config not used");
  }

  /**
   * {@code epochs} (one node's, under its report name {@code node}, in start order) without the
   * starts set aside, which go to {@code aside}. The node's first start is always kept: a fragment
   * can only be mistaken for the end of an epoch, and with no epoch before it there is none to end
   * (a startup banner written to a short stderr file beside a long stdout file is that first start).
   */
  List<ConfigEpoch> restarts(String node, List<ConfigEpoch> epochs, List<SetAside> aside) {
    List<ConfigEpoch> kept = new ArrayList<>(epochs.size());
    for (ConfigEpoch epoch : epochs) {
      SetAside set = kept.stream().anyMatch(e -> !e.fromMetrics()) ? setAside(node, epoch) : null;
      if (set == null) {
        kept.add(epoch);
      } else {
        aside.add(set);
      }
    }
    return kept;
  }
}

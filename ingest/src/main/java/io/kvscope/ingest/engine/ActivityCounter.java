package io.kvscope.ingest.engine;

import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.record.NodeActivity;
import io.kvscope.ingest.record.NodeRole;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts a node's log lines per UTC hour and emits a {@link NodeActivity} for each hour once the log
 * has moved past it. The previous hour stays open while the next one runs, because ranks writing to
 * the same file straddle an hour boundary for a moment; older hours are emitted. A clock that jumps
 * back into an emitted hour yields a second record for that hour: consumers add them up.
 */
public final class ActivityCounter {

  /** Open hours kept at most, whatever the clock does. */
  private static final int MAX_OPEN_HOURS = 4;

  private final String node;
  private final String sourceFile;
  private final RecordSink sink;
  private final TreeMap<Long, Hour> open = new TreeMap<>();
  private Long newestHour;
  private Long currentHour;
  private long pendingLines;
  private long pendingFirstLine;

  public ActivityCounter(String node, String sourceFile, RecordSink sink) {
    this.node = node;
    this.sourceFile = sourceFile;
    this.sink = sink;
  }

  /**
   * One line. {@code time} is the line's own timestamp, or {@code null} for a line without one (a
   * continuation), which counts toward the hour of the last timestamped line.
   */
  public void count(Long time, long line, NodeRole role) {
    if (time == null) {
      if (currentHour == null) {
        if (pendingLines++ == 0) {
          pendingFirstLine = line;
        }
        return;
      }
      hour(currentHour, line, role).lines++;
      return;
    }
    long hour = Math.floorDiv(time, NodeActivity.HOUR_MS) * NodeActivity.HOUR_MS;
    currentHour = hour;
    Hour entry = hour(hour, line, role);
    entry.lines++;
    if (pendingLines > 0) {
      entry.lines += pendingLines;
      entry.firstLine = Math.min(entry.firstLine, pendingFirstLine);
      pendingLines = 0;
    }
    if (newestHour == null || hour > newestHour) {
      newestHour = hour;
      while (!open.isEmpty() && open.firstKey() < newestHour - NodeActivity.HOUR_MS) {
        emit(open.pollFirstEntry());
      }
    }
    while (open.size() > MAX_OPEN_HOURS) {
      emit(open.pollFirstEntry());
    }
  }

  /** End of file: every open hour is emitted, oldest first. */
  public void finish() {
    while (!open.isEmpty()) {
      emit(open.pollFirstEntry());
    }
  }

  private Hour hour(long hour, long line, NodeRole role) {
    Hour entry = open.computeIfAbsent(hour, h -> new Hour(line, role));
    if (entry.role == NodeRole.UNKNOWN && role != NodeRole.UNKNOWN) {
      entry.role = role;
    }
    return entry;
  }

  private void emit(Map.Entry<Long, Hour> entry) {
    Hour h = entry.getValue();
    sink.accept(new NodeActivity(node, h.role, entry.getKey(), h.lines, sourceFile, h.firstLine));
  }

  private static final class Hour {
    long lines;
    long firstLine;
    NodeRole role;

    Hour(long firstLine, NodeRole role) {
      this.firstLine = firstLine;
      this.role = role == null ? NodeRole.UNKNOWN : role;
    }
  }
}

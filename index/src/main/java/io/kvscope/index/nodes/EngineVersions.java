package io.kvscope.index.nodes;

import io.kvscope.ingest.Printable;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.VersionOrigin;
import io.kvscope.ingest.record.VersionRecord;
import io.kvscope.ingest.record.VersionSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.LongUnaryOperator;
import java.util.regex.Pattern;

/**
 * Gives config epochs the engine version deployment records tell. No SGLang log line carries the
 * version, so an epoch's version is the one a {@link VersionRecord} of its node covers it with, or
 * stays unknown. A record covers an epoch by its kind ({@link VersionOrigin.Coverage}): a manifest
 * row or a template every epoch that started in its range, a pod's container status the process
 * that started when the container did, a saved server info the process running when it was saved.
 *
 * <p>Record times are wall clock; epoch starts are the node's clock, put on the gateway's by the
 * caller. Restarts are logged a little after a container starts and clocks differ by seconds, so a
 * record's start is allowed {@link #SLACK_MS} early.
 *
 * <p>When several records cover an epoch, the most direct kind wins (pod status, then manifest,
 * then server info, then pod spec, then template), the latest start among equals. A record that
 * names no release (an image tagged {@code latest}) leaves the version unknown but is kept as the
 * source, so findings can say which record was found and what it lacked.
 */
public final class EngineVersions {

  /** How far before a record's start an epoch may start and still be covered by it. */
  public static final long SLACK_MS = 2 * 60_000L;
  /** Epochs a process opens while it starts (data-parallel ranks with smaller pools) belong to that start. */
  static final long STARTUP_SPREAD_MS = 10 * 60_000L;

  private static final List<VersionOrigin> PRECEDENCE = List.of(VersionOrigin.ENGINE_LOG, VersionOrigin.POD_STATUS,
      VersionOrigin.MANIFEST, VersionOrigin.SERVER_INFO, VersionOrigin.POD_SPEC, VersionOrigin.WORKLOAD_TEMPLATE);

  private final List<VersionRecord> records;
  private final NodeIdentity identity;

  public EngineVersions(List<VersionRecord> records, NodeIdentity identity) {
    this.records = List.copyOf(records);
    this.identity = identity;
  }

  public boolean isEmpty() {
    return records.isEmpty();
  }

  /**
   * The epochs of one node (report name {@code node}, start order) with the versions records give
   * them. Epochs whose own log named a version keep it.
   *
   * @param wallClock an epoch start (node clock) on the wall clock the records use
   */
  public List<ConfigEpoch> resolve(String node, List<ConfigEpoch> epochs, LongUnaryOperator wallClock) {
    List<VersionRecord> mine = records.stream().filter(r -> covers(r, node)).toList();
    if (mine.isEmpty()) {
      return epochs;
    }
    long[] starts = new long[epochs.size()];
    for (int i = 0; i < epochs.size(); i++) {
      ConfigEpoch e = epochs.get(i);
      starts[i] = e.fromMetrics() ? e.start() : wallClock.applyAsLong(e.start());
    }
    List<ConfigEpoch> out = new ArrayList<>(epochs.size());
    for (int i = 0; i < epochs.size(); i++) {
      ConfigEpoch epoch = epochs.get(i);
      if (epoch.versionKnown()) {
        out.add(epoch);
        continue;
      }
      List<VersionRecord> covering = new ArrayList<>();
      for (VersionRecord r : mine) {
        if (coversEpoch(r, i, starts)) {
          covering.add(r);
        }
      }
      out.add(choose(epoch, covering, starts[i]));
    }
    return out;
  }

  private static ConfigEpoch choose(ConfigEpoch epoch, List<VersionRecord> covering, long start) {
    if (covering.isEmpty()) {
      return epoch;
    }
    Comparator<VersionRecord> order = Comparator.<VersionRecord>comparingInt(r -> PRECEDENCE.indexOf(r.origin()))
        .thenComparing(r -> r.from() == null ? Long.MIN_VALUE : r.from(), Comparator.reverseOrder());
    List<VersionRecord> sorted = covering.stream().sorted(order).toList();
    VersionRecord best = sorted.stream().filter(r -> r.version() != null).findFirst().orElse(null);
    if (best == null) {
      VersionRecord silent = sorted.get(0);
      return epoch.withVersion(null, new VersionSource(silent.origin(),
          (silent.image() == null ? "the record" : "image " + silent.image()) + " names no release",
          silent.sourceFile(), silent.sourceLine()));
    }
    // A range that ends (or starts) within the clock slack of the epoch's start is an upgrade's
    // boundary, not a record that disagrees.
    List<String> others = sorted.stream().filter(r -> r.version() != null && !r.version().equals(best.version())
            && !atBoundary(r, start))
        .map(r -> r.origin().description() + " says " + Printable.text(r.version())).distinct().toList();
    VersionSource source = best.asSource();
    if (!others.isEmpty()) {
      List<String> versions = sorted.stream().filter(r -> !atBoundary(r, start)).map(VersionRecord::version)
          .filter(v -> v != null && !v.equals(best.version())).distinct().toList();
      source = new VersionSource(source.origin(), (source.detail() == null ? "" : source.detail() + "; ")
          + "disagreeing: " + String.join(", ", others), source.sourceFile(), source.sourceLine(), versions);
    }
    return epoch.withVersion(best.version(), source);
  }

  private static boolean atBoundary(VersionRecord r, long start) {
    return r.origin().coverage() == VersionOrigin.Coverage.RANGE
        && ((r.to() != null && start >= r.to() - SLACK_MS) || (r.from() != null && start < r.from()));
  }

  /** Whether {@code r} is about the node reports call {@code node}. */
  private boolean covers(VersionRecord r, String node) {
    if (!r.workload()) {
      return identity.canonical(r.node()).equals(node);
    }
    Pattern pods = Pattern.compile(Pattern.quote(r.node()) + "-([0-9]+|[a-z0-9]{5}|[a-z0-9]{6,10}-[a-z0-9]{5})");
    Set<String> names = identity.names(node);
    return names.stream().anyMatch(n -> pods.matcher(n).matches());
  }

  private static boolean coversEpoch(VersionRecord r, int i, long[] starts) {
    long t = starts[i];
    return switch (r.origin().coverage()) {
      case RANGE -> (r.from() == null || t >= r.from() - SLACK_MS) && (r.to() == null || t < r.to());
      case STARTED_AT -> {
        if (r.from() == null) {
          yield false;
        }
        int first = -1;
        for (int j = 0; j < starts.length; j++) {
          if (starts[j] >= r.from() - SLACK_MS) {
            first = j;
            break;
          }
        }
        yield first >= 0 && i >= first && starts[i] <= Math.max(starts[first], r.from()) + STARTUP_SPREAD_MS;
      }
      case RUNNING_AT -> {
        if (r.from() == null) {
          yield false;
        }
        int running = -1;
        for (int j = 0; j < starts.length; j++) {
          if (starts[j] <= r.from() + SLACK_MS) {
            running = j;
          }
        }
        yield running == i;
      }
    };
  }
}

package io.kvscope.analysis;

import io.kvscope.model.finding.Finding;
import io.kvscope.index.nodes.Epochs;
import io.kvscope.index.nodes.NodeClocks;
import io.kvscope.ingest.record.ConfigEpoch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A node's config epoch as the config audit judges it: on the gateway's clock, with its end (the
 * next epoch's start, or null while it is the node's latest). The config audit's findings about an
 * epoch carry its node and {@link #start()}, so a view can list every epoch (those that passed too)
 * beside what the audit said of it ({@link #isAbout}).
 */
public record NodeEpoch(ConfigEpoch epoch, Instant start, Instant end) {

  /**
   * A node's epochs (in start order) as the audit uses them. Prometheus snapshots only corroborate
   * a node that has logs: their timestamps are scrape times, not restarts.
   */
  public static List<NodeEpoch> of(List<ConfigEpoch> epochs, NodeClocks clocks) {
    boolean hasLogs = epochs.stream().anyMatch(e -> !e.fromMetrics());
    List<ConfigEpoch> used = epochs.stream().filter(e -> !hasLogs || !e.fromMetrics()).toList();
    List<NodeEpoch> result = new ArrayList<>();
    for (int i = 0; i < used.size(); i++) {
      ConfigEpoch epoch = used.get(i);
      Instant end = i + 1 < used.size() ? Instant.ofEpochMilli(clocks.toGatewayTime(epoch.node(), used.get(i + 1).start())) : null;
      result.add(new NodeEpoch(epoch, Instant.ofEpochMilli(clocks.toGatewayTime(epoch.node(), epoch.start())), end));
    }
    return result;
  }

  /** Every node's epochs, node by node in name order. */
  public static List<NodeEpoch> all(Epochs epochs, NodeClocks clocks) {
    List<NodeEpoch> all = new ArrayList<>();
    for (Map.Entry<String, List<ConfigEpoch>> node : epochs.byNode().entrySet()) {
      all.addAll(of(node.getValue(), clocks));
    }
    return all;
  }

  /** Whether {@code finding} is a config finding about this epoch. */
  public boolean isAbout(Finding finding) {
    return finding.kind().isConfig() && finding.requestId() == null && epoch.node().equals(finding.node())
        && start.equals(finding.time());
  }

  /**
   * Pool below context length on an engine not known to be at least {@code fixedVersion}: unknown,
   * older, or claimed patched by one record while another record of the same epoch says otherwise.
   */
  public boolean vulnerable(String fixedVersion) {
    return epoch.poolBelowContext() && (!VersionOrder.atLeast(epoch.engineVersion(), fixedVersion) || contested(fixedVersion));
  }

  /** Another record covering this epoch claims a version below {@code fixedVersion} (or no release number). */
  public boolean contested(String fixedVersion) {
    return epoch.versionSource() != null
        && epoch.versionSource().disagreeing().stream().anyMatch(v -> !VersionOrder.atLeast(v, fixedVersion));
  }
}

package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.NodeEpoch;
import io.kvscope.analysis.impact.Window;
import io.kvscope.index.Epochs;
import io.kvscope.index.NodeClocks;
import io.kvscope.ingest.record.ConfigEpoch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Per node, the stretches of time it ran a config that admits the leak: KV pool below context
 * length on an engine older than the fix, or of unknown version (then the window says so: it is
 * vulnerable unless the engine was patched, which no record shows). Consecutive vulnerable epochs (a restart that changed
 * nothing that matters) merge into one window; a window still open at the node's last epoch has no end.
 */
public final class VulnerableWindows {

  private VulnerableWindows() {}

  public static List<Window> of(Epochs epochs, NodeClocks clocks, String fixedVersion) {
    List<Window> windows = new ArrayList<>();
    for (Map.Entry<String, List<ConfigEpoch>> node : epochs.byNode().entrySet()) {
      List<NodeEpoch> open = new ArrayList<>();
      for (NodeEpoch epoch : NodeEpoch.of(node.getValue(), clocks)) {
        if (epoch.vulnerable(fixedVersion)) {
          open.add(epoch);
        } else if (!open.isEmpty()) {
          windows.add(window(node.getKey(), open, epoch.start()));
          open = new ArrayList<>();
        }
      }
      if (!open.isEmpty()) {
        windows.add(window(node.getKey(), open, null));
      }
    }
    return windows;
  }

  private static Window window(String node, List<NodeEpoch> epochs, java.time.Instant end) {
    ConfigEpoch e = epochs.get(0).epoch();
    String version = String.join(", ", epochs.stream()
        .map(ne -> ne.epoch().versionKnown() ? ne.epoch().engineVersion() : Window.UNKNOWN_VERSION).distinct().toList());
    boolean unknown = epochs.stream().anyMatch(ne -> !ne.epoch().versionKnown());
    String reason = "pool " + e.poolTokens() + " < context " + e.contextLength()
        + (unknown && version.equals(Window.UNKNOWN_VERSION)
            ? "; engine version unknown (no deployment record tells it): vulnerable unless the engine was patched"
            : " on engine " + version)
        + (e.startIsFileTime() ? "; start is a metrics snapshot file's modification time (weak)" : "");
    return new Window(Window.Kind.VULNERABLE, node, null, epochs.get(0).start(), end, 0, reason, version,
        java.time.Instant.ofEpochMilli(e.start()));
  }
}

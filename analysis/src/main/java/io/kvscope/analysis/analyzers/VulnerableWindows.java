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
 * length on an engine older than the fix. Consecutive vulnerable epochs (a restart that changed
 * nothing that matters) merge into one window; a window still open at the node's last epoch has no end.
 */
public final class VulnerableWindows {

  private VulnerableWindows() {}

  public static List<Window> of(Epochs epochs, NodeClocks clocks, String fixedVersion) {
    List<Window> windows = new ArrayList<>();
    for (Map.Entry<String, List<ConfigEpoch>> node : epochs.byNode().entrySet()) {
      NodeEpoch open = null;
      for (NodeEpoch epoch : NodeEpoch.of(node.getValue(), clocks)) {
        if (epoch.vulnerable(fixedVersion)) {
          if (open == null) {
            open = epoch;
          }
        } else if (open != null) {
          windows.add(window(node.getKey(), open, epoch.start()));
          open = null;
        }
      }
      if (open != null) {
        windows.add(window(node.getKey(), open, null));
      }
    }
    return windows;
  }

  private static Window window(String node, NodeEpoch first, java.time.Instant end) {
    ConfigEpoch e = first.epoch();
    String reason = "pool " + e.poolTokens() + " < context " + e.contextLength() + " on engine "
        + (e.engineVersion() == null ? "(version unknown)" : e.engineVersion());
    return new Window(Window.Kind.VULNERABLE, node, null, first.start(), end, 0, reason);
  }
}

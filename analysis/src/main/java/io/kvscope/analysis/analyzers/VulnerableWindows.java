package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.NodeEpoch;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.ingest.Printable;
import io.kvscope.analysis.impact.Window;
import io.kvscope.index.nodes.Epochs;
import io.kvscope.index.nodes.NodeClocks;
import io.kvscope.index.nodes.ShortLogs;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.EngineEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per node, the stretches of time it ran a config that admits the leak: KV pool below context
 * length on an engine older than the fix, or of unknown version (then the window says so: it is
 * vulnerable unless the engine was patched, which no record shows). Consecutive vulnerable epochs (a restart that changed
 * nothing that matters) merge into one window; a window still open at the node's last epoch has no end.
 *
 * <p>Mechanism outranks a claim: an epoch a deployment record calls patched stays vulnerable when the
 * node's own logs show the leak's mechanism in it (an over-length prompt accepted, a prefill
 * underrun, a failed KV transfer or bootstrap), and the window names the conflict. Records that
 * disagree with each other are named too. A start logged by a fragment inside another log of the
 * node ends no window ({@link Epochs#setAside}): the window it falls in says what was assumed.
 */
public final class VulnerableWindows {

  private VulnerableWindows() {}

  public static List<Window> of(Epochs epochs, NodeClocks clocks, String fixedVersion) {
    return of(epochs, clocks, fixedVersion, List.of(), List.of());
  }

  /** What a node's own logs showed of the mechanism at a time (gateway clock), and about which request. */
  private record Shown(Instant time, String what, String request) {}

  /**
   * @param findings the analysis's findings so far: its over-length and underrun findings are the
   *     mechanism a node's logs show, which no deployment record overrules
   * @param failedTransfers the engine lines of failed KV transfers and bootstraps (node clock): the
   *     mechanism too, on the node that logged them
   */
  public static List<Window> of(Epochs epochs, NodeClocks clocks, String fixedVersion, List<Finding> findings,
      List<EngineEvent> failedTransfers) {
    Map<String, List<Shown>> mechanism = new HashMap<>();
    for (Finding f : findings) {
      if ((f.kind() == FindingKind.OVER_LENGTH_ACCEPTED || f.kind() == FindingKind.PREFILL_UNDERRUN)
          && f.confidence().counts() && f.node() != null && f.time() != null) {
        mechanism.computeIfAbsent(epochs.canonical(f.node()), n -> new ArrayList<>())
            .add(new Shown(f.time(), f.kind().label(), f.requestId()));
      }
    }
    for (EngineEvent e : failedTransfers) {
      String node = epochs.canonical(e.node());
      mechanism.computeIfAbsent(node, n -> new ArrayList<>()).add(new Shown(
          Instant.ofEpochMilli(clocks.toGatewayTime(node, e.time())),
          e.kind() == EngineEvent.Kind.BOOTSTRAP_FAILED ? "a failed KV bootstrap" : "a failed KV transfer", e.rid()));
    }
    List<Window> windows = new ArrayList<>();
    for (Map.Entry<String, List<ConfigEpoch>> node : epochs.byNode().entrySet()) {
      List<NodeEpoch> open = new ArrayList<>();
      List<String> conflicts = new ArrayList<>();
      for (NodeEpoch epoch : NodeEpoch.of(node.getValue(), clocks)) {
        Shown shown = epoch.vulnerable(fixedVersion) || !epoch.epoch().poolBelowContext() ? null
            : firstIn(mechanism.getOrDefault(node.getKey(), List.of()), epoch);
        if (shown != null) {
          conflicts.add("a deployment record says engine " + Printable.text(epoch.epoch().engineVersion())
              + (epoch.epoch().versionSource() == null ? "" : " (" + Printable.text(epoch.epoch().versionSource().describe()) + ")")
              + ", but the node's own logs show " + shown.what() + " at " + shown.time()
              + " (" + Printable.text(shown.request()) + "): the window stays open");
        }
        if (epoch.vulnerable(fixedVersion) || shown != null) {
          open.add(epoch);
        } else if (!open.isEmpty()) {
          windows.add(window(node.getKey(), open, epoch.start(), conflicts));
          open = new ArrayList<>();
          conflicts = new ArrayList<>();
        }
      }
      if (!open.isEmpty()) {
        windows.add(window(node.getKey(), open, null, conflicts));
      }
    }
    return windows.stream().map(w -> withAssumptions(w, epochs, clocks)).toList();
  }

  /** {@code window} with the starts read as no restart inside it named in its reason. */
  private static Window withAssumptions(Window window, Epochs epochs, NodeClocks clocks) {
    List<String> assumed = epochs.setAside().stream()
        .filter(a -> a.epoch().node().equals(window.node()))
        .filter(a -> {
          Instant at = Instant.ofEpochMilli(clocks.toGatewayTime(window.node(), a.epoch().start()));
          return !at.isBefore(window.start()) && (window.end() == null || at.isBefore(window.end()));
        })
        .map(ShortLogs.SetAside::why).toList();
    return assumed.isEmpty() ? window : new Window(window.kind(), window.node(), window.deployment(), window.start(),
        window.end(), window.count(), window.reason() + "; ASSUMED: " + String.join("; ", assumed),
        window.engineVersion(), window.nodeStart());
  }

  /** The first sign of the mechanism inside the epoch (gateway clock), or null. */
  private static Shown firstIn(List<Shown> mechanism, NodeEpoch epoch) {
    return mechanism.stream().filter(f -> !f.time().isBefore(epoch.start()) && (epoch.end() == null || f.time().isBefore(epoch.end())))
        .min(java.util.Comparator.comparing(Shown::time)).orElse(null);
  }

  private static Window window(String node, List<NodeEpoch> epochs, java.time.Instant end, List<String> conflicts) {
    ConfigEpoch e = epochs.get(0).epoch();
    String version = String.join(", ", epochs.stream()
        .map(ne -> ne.epoch().versionKnown() ? ne.epoch().engineVersion() : Window.UNKNOWN_VERSION).distinct().toList());
    boolean unknown = epochs.stream().anyMatch(ne -> !ne.epoch().versionKnown());
    String reason = "pool " + e.poolTokens() + " < context " + e.contextLength()
        + (unknown && version.equals(Window.UNKNOWN_VERSION)
            ? "; engine version unknown (no deployment record tells it): vulnerable unless the engine was patched"
            : " on engine " + version)
        + (e.startIsFileTime() ? "; start is a metrics snapshot file's modification time (weak)" : "")
        + (conflicts.isEmpty() ? "" : "; CONFLICT: " + String.join("; ", conflicts))
        + disagreeing(epochs);
    return new Window(Window.Kind.VULNERABLE, node, null, epochs.get(0).start(), end, 0, reason, version,
        java.time.Instant.ofEpochMilli(e.start()));
  }

  /** Deployment records of these epochs that disagree with the one followed, as their sources say. */
  private static String disagreeing(List<NodeEpoch> epochs) {
    List<String> said = epochs.stream().map(ne -> ne.epoch().versionSource())
        .filter(v -> v != null && v.detail() != null && v.detail().contains("disagreeing:"))
        .map(v -> Printable.text(v.describe())).distinct().toList();
    return said.isEmpty() ? "" : "; records disagree: " + String.join("; ", said);
  }
}

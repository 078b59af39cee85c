package io.kvscope.cli;

import io.kvscope.index.nodes.Epochs;
import io.kvscope.index.IndexSearch;
import io.kvscope.ingest.Printable;
import io.kvscope.ingest.record.ConfigEpoch;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * After an ingest: which names were found to be one node, which logged starts were read as no
 * restart, and how many config epochs have an engine version from a deployment record. Both decide what the analysis can claim, so the user sees them
 * before analysing.
 */
final class NodeSummary {

  private NodeSummary() {}

  static void print(Path indexDir, PrintStream out) throws IOException {
    try (IndexSearch index = IndexSearch.open(indexDir)) {
      Epochs epochs = Epochs.load(index.reader());
      Map<String, Set<String>> aliased = epochs.identity().aliased();
      if (!aliased.isEmpty()) {
        out.println("Node names joined (one node each):");
        aliased.forEach((node, names) -> out.println("  " + Printable.text(node) + " = "
            + String.join(", ", names.stream().filter(n -> !n.equals(node)).map(Printable::text).toList())));
      }
      List<String> refused = epochs.identity().refused();
      if (!refused.isEmpty()) {
        out.println("Node names kept apart (the engine logs disagree with the alias): " + refused.size());
        refused.forEach(r -> out.println("  " + Printable.text(r)));
      }
      if (!epochs.setAside().isEmpty()) {
        out.println("Starts read as no restart (a short log inside a longer log of the same node): "
            + epochs.setAside().size());
        epochs.setAside().forEach(a -> out.println("  " + a.why()));
      }
      List<ConfigEpoch> logged = epochs.all().stream().filter(e -> !e.fromMetrics()).toList();
      if (logged.isEmpty()) {
        return;
      }
      Map<String, Integer> unknown = new TreeMap<>();
      for (ConfigEpoch e : logged) {
        if (!e.versionKnown()) {
          unknown.merge(e.node(), 1, Integer::sum);
        }
      }
      out.printf("Engine versions: %d of %d config epochs known%s%n", logged.size() - unknown.values().stream()
          .mapToInt(Integer::intValue).sum(), logged.size(), unknown.isEmpty() ? "" : "; unknown on "
          + String.join(", ", unknown.entrySet().stream().map(u -> Printable.text(u.getKey()) + " (" + u.getValue() + ")").toList())
          + ": no SGLang log line names the release, add deployment records (pods as kubectl get -o yaml shows them,"
          + " saved /get_server_info responses, or a deployment manifest; docs/formats.md, Deployment records)");
    }
  }
}

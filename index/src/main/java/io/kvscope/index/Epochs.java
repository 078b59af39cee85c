package io.kvscope.index;

import io.kvscope.ingest.record.ConfigEpoch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;

/**
 * Every node's config epochs in start order. Fleets have few nodes and fewer restarts, so the
 * whole set fits in memory comfortably.
 */
public final class Epochs implements EngineFacts.EpochLookup {

  private final Map<String, List<ConfigEpoch>> byNode;

  public Epochs(Collection<ConfigEpoch> epochs) {
    Map<String, List<ConfigEpoch>> grouped = new TreeMap<>();
    for (ConfigEpoch epoch : epochs) {
      grouped.computeIfAbsent(epoch.node(), n -> new ArrayList<>()).add(epoch);
    }
    grouped.values().forEach(list -> list.sort(Comparator.comparingLong(ConfigEpoch::start)));
    this.byNode = grouped;
  }

  public static Epochs load(IndexReader reader) throws IOException {
    List<ConfigEpoch> epochs = new ArrayList<>();
    TypedDocs.forEach(reader, Schema.TYPE_EPOCH, doc -> epochs.add(Documents.readEpoch(doc)));
    return new Epochs(epochs);
  }

  /** The epoch {@code node} was in at {@code time} (node clock), or null before its first one. */
  @Override
  public ConfigEpoch at(String node, long time) {
    List<ConfigEpoch> epochs = byNode.get(node);
    if (epochs == null) {
      return null;
    }
    ConfigEpoch current = null;
    for (ConfigEpoch epoch : epochs) {
      if (epoch.start() > time) {
        break;
      }
      current = epoch;
    }
    return current;
  }

  /** Nodes in name order, each with its epochs in start order. */
  public Map<String, List<ConfigEpoch>> byNode() {
    return byNode;
  }

  public List<ConfigEpoch> all() {
    return byNode.values().stream().flatMap(List::stream).toList();
  }
}

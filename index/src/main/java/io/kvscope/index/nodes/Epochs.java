package io.kvscope.index.nodes;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.TypedDocs;
import io.kvscope.model.join.EngineFacts;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeActivity;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.VersionRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.index.IndexReader;

/**
 * Every node's config epochs in start order, each node under the name reports use
 * ({@link NodeIdentity}) and each epoch with the engine version deployment records give it
 * ({@link EngineVersions}). A start logged by a fragment inside another log of the node is no
 * restart ({@link ShortLogs}): it is set aside, and said. Fleets have few nodes and fewer restarts,
 * so the whole set fits in memory comfortably.
 */
public final class Epochs implements EngineFacts.EpochLookup {

  private final Map<String, List<ConfigEpoch>> byNode;
  /** What a request was served under: a node's log epochs when it has any (snapshots only corroborate them). */
  private final Map<String, List<ConfigEpoch>> serving;
  private final NodeIdentity identity;
  private final NodeClocks clocks;
  private final List<ShortLogs.SetAside> setAside;

  /** Epochs as given: every node name is its own node, versions only as the epochs carry them. */
  public Epochs(Collection<ConfigEpoch> epochs) {
    this(epochs, NodeIdentity.none(), new EngineVersions(List.of(), NodeIdentity.none()), NodeClocks.none(),
        ShortLogs.none());
  }

  /**
   * Epochs under their nodes' report names, with versions from {@code versions}; {@code clocks}
   * puts a node's epoch starts on the wall clock deployment records use; the starts {@code shortLogs}
   * reads as no restart are left out.
   */
  public Epochs(Collection<ConfigEpoch> epochs, NodeIdentity identity, EngineVersions versions, NodeClocks clocks,
      ShortLogs shortLogs) {
    this.identity = identity;
    this.clocks = clocks;
    Map<String, List<ConfigEpoch>> grouped = new TreeMap<>();
    for (ConfigEpoch epoch : epochs) {
      String node = identity.canonical(epoch.node());
      grouped.computeIfAbsent(node, n -> new ArrayList<>()).add(node.equals(epoch.node()) ? epoch : epoch.withNode(node));
    }
    List<ShortLogs.SetAside> aside = new ArrayList<>();
    grouped.replaceAll((node, list) -> {
      list.sort(Comparator.comparingLong(ConfigEpoch::start));
      List<ConfigEpoch> restarts = shortLogs.restarts(node, list, aside);
      return List.copyOf(versions.isEmpty() ? restarts
          : versions.resolve(node, restarts, t -> clocks.toGatewayTime(node, t)));
    });
    this.setAside = List.copyOf(aside);
    this.byNode = grouped;
    Map<String, List<ConfigEpoch>> serving = new TreeMap<>();
    grouped.forEach((node, list) -> {
      List<ConfigEpoch> logged = list.stream().filter(e -> !e.fromMetrics()).toList();
      serving.put(node, logged.isEmpty() ? list : logged);
    });
    this.serving = serving;
  }

  /** The epochs, node identity, versions and clocks of an index, each read once, from doc values. */
  public static Epochs load(IndexReader reader) throws IOException {
    List<ConfigEpoch> epochs = new ArrayList<>();
    TypedDocs.forEachValues(reader, Schema.TYPE_EPOCH, (values, doc) -> epochs.add(Documents.readEpoch(values)));
    List<VersionRecord> records = new ArrayList<>();
    TypedDocs.forEachValues(reader, Schema.TYPE_VERSION_RECORD,
        (values, doc) -> records.add(Documents.readVersionRecord(values)));
    List<NodeAlias> aliases = new ArrayList<>();
    TypedDocs.forEachValues(reader, Schema.TYPE_NODE_ALIAS, (values, doc) -> aliases.add(Documents.readAlias(values)));
    NodeIdentity identity = NodeIdentity.of(aliases, epochs);
    List<NodeActivity> hours = new ArrayList<>();
    TypedDocs.forEachValues(reader, Schema.TYPE_NODE_HOUR, (values, doc) -> hours.add(Documents.readActivity(values)));
    return of(epochs, identity, records, hours, NodeClocks.load(reader, identity));
  }

  /**
   * The epochs of an ingest's own records, wherever they were read: each node under the name its
   * {@code aliases} give it, each epoch with the version the {@code versions} records give it, the
   * starts the logs' {@code hours} show to be no restart set aside.
   */
  public static Epochs of(Collection<ConfigEpoch> epochs, Collection<NodeAlias> aliases, List<VersionRecord> versions,
      Collection<NodeActivity> hours, NodeClocks clocks) {
    return of(epochs, NodeIdentity.of(aliases, epochs), versions, hours, clocks);
  }

  private static Epochs of(Collection<ConfigEpoch> epochs, NodeIdentity identity, List<VersionRecord> versions,
      Collection<NodeActivity> hours, NodeClocks clocks) {
    return new Epochs(epochs, identity, new EngineVersions(versions, identity), clocks, ShortLogs.of(hours, identity));
  }

  /** The epoch {@code node} (any of its names) was in at {@code time} (node clock), or null before its first one. */
  @Override
  public ConfigEpoch at(String node, long time) {
    List<ConfigEpoch> epochs = serving.get(identity.canonical(node));
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

  /** The name reports use for {@code node}. */
  @Override
  public String canonical(String node) {
    return identity.canonical(node);
  }

  public NodeIdentity identity() {
    return identity;
  }

  /** Each node's clock against the gateway's, as these epochs were placed with. */
  public NodeClocks clocks() {
    return clocks;
  }

  /** Nodes in name order, each with its epochs in start order. */
  public Map<String, List<ConfigEpoch>> byNode() {
    return byNode;
  }

  /**
   * Startups of {@code node}'s engine after its first, on the gateway's clock: each one allocated a
   * new KV pool. Prometheus snapshots are not startups; an epoch split within one startup
   * (data-parallel ranks reporting different pools) comes before the node serves anything, so
   * treating it as one costs nothing.
   */
  public long[] restarts(String node) {
    return byNode.getOrDefault(node, List.of()).stream().filter(e -> !e.fromMetrics())
        .mapToLong(e -> clocks.toGatewayTime(node, e.start())).sorted().distinct().skip(1).toArray();
  }

  /** The logged starts read as no restart, node by node in start order, each with what was assumed. */
  public List<ShortLogs.SetAside> setAside() {
    return setAside;
  }

  public List<ConfigEpoch> all() {
    return byNode.values().stream().flatMap(List::stream).toList();
  }
}

package io.kvscope.index.nodes;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.TypedDocs;
import io.kvscope.ingest.NodeAddresses;
import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.lucene.index.IndexReader;

/**
 * The one place where every name of an engine node (its log file's stem, its pod name, its
 * {@code host:port}, a Prometheus {@code instance}, a peer's {@code bootstrap_host}) becomes the one
 * name reports use. Built from the {@link NodeAlias}es in the index when it is read; the documents
 * keep the names their files wrote.
 *
 * <p>Names joined by an alias are one node. The name reports use is the {@code node} side of the most
 * authoritative alias ({@link AliasOrigin#rank()}: the user, then the server's own arguments, ...).
 * A bare host (no port) is weak, since several servers may share one: it joins a node only when no
 * other node claims that host, and a {@code host:port} nobody named resolves through its host on the
 * same terms. A name no alias mentions is its own node.
 *
 * <p>An alias is a claim, and anyone who writes a pod list, a manifest or a Prometheus label can
 * make one. The engine logs are the stronger word: an alias that would join two names that each
 * have their own engine log, or a name a log shows as prefill with one it shows as decode, is
 * refused and listed ({@link #refused()}) rather than followed. Aliases are weighed most
 * authoritative first, so a forged label cannot pre-empt the user's or a server's own word.
 */
public final class NodeIdentity {

  private static final Pattern IP_LITERAL = Pattern.compile("^(\\d{1,3}(\\.\\d{1,3}){3}|\\[?[0-9a-fA-F:]+:[0-9a-fA-F:]*]?)$");

  private static final NodeIdentity NONE = new NodeIdentity(Map.of(), Map.of(), Map.of(), List.of());

  /** Every strongly joined name to its node's report name. */
  private final Map<String, String> canonical;
  /** Hosts that exactly one node claims, to that node's report name. */
  private final Map<String, String> byHost;
  /** Report name to every name of that node. */
  private final Map<String, Set<String>> names;
  /** Aliases not followed, each with why. */
  private final List<String> refused;

  private NodeIdentity(Map<String, String> canonical, Map<String, String> byHost, Map<String, Set<String>> names,
      List<String> refused) {
    this.canonical = canonical;
    this.byHost = byHost;
    this.names = names;
    this.refused = refused;
  }

  /** What the engine logs say about a name: it has its own log, and the roles (prefill, decode) its epochs show. */
  public record Logged(boolean ownLog, Set<NodeRole> roles) {}

  /** No aliases: every name is its own node. */
  public static NodeIdentity none() {
    return NONE;
  }

  public static NodeIdentity load(IndexReader reader) throws IOException {
    List<NodeAlias> aliases = new ArrayList<>();
    TypedDocs.forEachValues(reader, Schema.TYPE_NODE_ALIAS, (values, doc) -> aliases.add(Documents.readAlias(values)));
    if (aliases.isEmpty()) {
      return NONE;
    }
    List<ConfigEpoch> epochs = new ArrayList<>();
    TypedDocs.forEachValues(reader, Schema.TYPE_EPOCH, (values, doc) -> epochs.add(Documents.readEpoch(values)));
    return of(aliases, epochs);
  }

  /** The identity that {@code aliases} give, weighed against what the engine logs' {@code epochs} show. */
  public static NodeIdentity of(Collection<NodeAlias> aliases, Collection<ConfigEpoch> epochs) {
    if (aliases.isEmpty()) {
      return NONE;
    }
    Map<String, Logged> logged = new HashMap<>();
    for (ConfigEpoch e : epochs) {
      if (!e.fromMetrics()) { // a metrics label is a claim like an alias; only a log counts here
        Set<NodeRole> roles = e.role() == NodeRole.PREFILL || e.role() == NodeRole.DECODE ? Set.of(e.role()) : Set.of();
        logged.merge(e.node(), new Logged(true, roles), NodeIdentity::both);
      }
    }
    return of(aliases, logged);
  }

  public static NodeIdentity of(Collection<NodeAlias> aliases) {
    return of(aliases, Map.of());
  }

  /**
   * @param logged what the engine logs (and metrics, for roles) say about each name they use
   */
  public static NodeIdentity of(Collection<NodeAlias> aliases, Map<String, Logged> logged) {
    UnionFind groups = new UnionFind();
    Guard guard = new Guard(groups, logged);
    List<NodeAlias> weak = new ArrayList<>();
    Map<String, AliasOrigin> bestAsNode = new HashMap<>();
    List<NodeAlias> byAuthority = aliases.stream().sorted(Comparator.<NodeAlias>comparingInt(a -> a.origin().rank())
        .thenComparing(a -> String.valueOf(a.sourceFile())).thenComparingLong(NodeAlias::sourceLine)
        .thenComparing(NodeAlias::node).thenComparing(NodeAlias::alias)).toList();
    for (NodeAlias a : byAuthority) {
      groups.add(a.node());
      if (isBareHost(a.alias()) && a.origin() != AliasOrigin.USER) {
        bestAsNode.merge(a.node(), a.origin(), (x, y) -> x.rank() <= y.rank() ? x : y);
        weak.add(a);
      } else if (guard.join(a)) {
        bestAsNode.merge(a.node(), a.origin(), (x, y) -> x.rank() <= y.rank() ? x : y);
      }
    }
    // Hosts: those the strong names carry (host:port) and the weak ones, each to the nodes claiming it.
    Map<String, Set<String>> hostRoots = new HashMap<>();
    for (String name : groups.names()) {
      if (NodeAddresses.hasPort(name)) {
        hostRoots.computeIfAbsent(NodeAddresses.hostOf(name), h -> new HashSet<>()).add(groups.find(name));
      }
    }
    for (NodeAlias a : weak) {
      hostRoots.computeIfAbsent(NodeAddresses.hostOf(a.alias()), h -> new HashSet<>()).add(groups.find(a.node()));
    }
    // A weak host claimed by one node only is that node's name too.
    for (NodeAlias a : weak) {
      Set<String> roots = hostRoots.get(NodeAddresses.hostOf(a.alias()));
      if (roots != null && roots.size() == 1) {
        guard.join(a);
      }
    }
    Map<String, List<String>> members = new TreeMap<>();
    for (String name : groups.names()) {
      members.computeIfAbsent(groups.find(name), r -> new ArrayList<>()).add(name);
    }
    Map<String, String> canonical = new HashMap<>();
    Map<String, Set<String>> names = new TreeMap<>();
    Map<String, String> rootToName = new HashMap<>();
    for (Map.Entry<String, List<String>> group : members.entrySet()) {
      String chosen = group.getValue().stream()
          .filter(bestAsNode::containsKey)
          .min(Comparator.<String>comparingInt(n -> bestAsNode.get(n).rank())
              .thenComparing(NodeAddresses::hasPort) // a name before an address
              .thenComparingInt(String::length)
              .thenComparing(Comparator.naturalOrder()))
          .orElse(group.getValue().get(0));
      rootToName.put(group.getKey(), chosen);
      for (String name : group.getValue()) {
        canonical.put(name, chosen);
      }
      names.put(chosen, Collections.unmodifiableSet(new TreeSet<>(group.getValue())));
    }
    Map<String, String> byHost = new HashMap<>();
    hostRoots.forEach((host, roots) -> {
      Set<String> nodes = new HashSet<>();
      for (String root : roots) {
        nodes.add(rootToName.get(groups.find(root)));
      }
      if (nodes.size() == 1 && host != null) {
        byHost.put(host, nodes.iterator().next());
      }
    });
    return new NodeIdentity(Map.copyOf(canonical), Map.copyOf(byHost), Collections.unmodifiableMap(names),
        List.copyOf(guard.refused));
  }

  private static Logged both(Logged a, Logged b) {
    Set<NodeRole> roles = new TreeSet<>(a.roles());
    roles.addAll(b.roles());
    return new Logged(a.ownLog() || b.ownLog(), Set.copyOf(roles));
  }

  /** Joins names unless the logs keep them apart; remembers what it refused. */
  private static final class Guard {
    private final UnionFind groups;
    private final Map<String, Logged> logged;
    /** Per group root: the names in it that have their own engine log, and the roles seen. */
    private final Map<String, Set<String>> logs = new HashMap<>();
    private final Map<String, Set<NodeRole>> roles = new HashMap<>();
    final List<String> refused = new ArrayList<>();

    Guard(UnionFind groups, Map<String, Logged> logged) {
      this.groups = groups;
      this.logged = logged;
    }

    boolean join(NodeAlias a) {
      String ra = groups.find(a.node());
      String rb = groups.find(a.alias());
      if (ra.equals(rb)) {
        return true;
      }
      Set<String> logsA = logsOf(ra, a.node());
      Set<String> logsB = logsOf(rb, a.alias());
      Set<NodeRole> rolesA = rolesOf(ra, a.node());
      Set<NodeRole> rolesB = rolesOf(rb, a.alias());
      if (!logsA.isEmpty() && !logsB.isEmpty()) {
        String why = !rolesA.isEmpty() && !rolesB.isEmpty() && Collections.disjoint(rolesA, rolesB)
            ? "its logs show " + String.join(", ", logsB) + " as " + role(rolesB) + " and " + String.join(", ", logsA)
                + " as " + role(rolesA)
            : "it would make " + String.join(", ", logsA) + " and " + String.join(", ", logsB)
                + " one node, and each has its own engine log";
        refused.add("alias " + a.alias() + " = " + a.node() + " (" + a.origin().name().toLowerCase(java.util.Locale.ROOT)
            + (a.sourceFile() == null ? "" : ", " + a.sourceFile() + (a.sourceLine() > 0 ? ":" + a.sourceLine() : ""))
            + ") not followed: " + why);
        return false;
      }
      groups.union(ra, rb);
      String root = groups.find(ra);
      Set<String> mergedLogs = new TreeSet<>(logsA);
      mergedLogs.addAll(logsB);
      Set<NodeRole> mergedRoles = new TreeSet<>(rolesA);
      mergedRoles.addAll(rolesB);
      logs.put(root, mergedLogs);
      roles.put(root, mergedRoles);
      return true;
    }

    private Set<String> logsOf(String root, String name) {
      return logs.computeIfAbsent(root, r -> {
        Logged l = logged.get(name);
        return l != null && l.ownLog() ? new TreeSet<>(Set.of(name)) : new TreeSet<>();
      });
    }

    private Set<NodeRole> rolesOf(String root, String name) {
      return roles.computeIfAbsent(root, r -> {
        Logged l = logged.get(name);
        return l == null ? new TreeSet<>() : new TreeSet<>(l.roles());
      });
    }

    private static String role(Set<NodeRole> roles) {
      return String.join("/", roles.stream().map(r -> r.name().toLowerCase(java.util.Locale.ROOT)).toList());
    }
  }

  /**
   * The name reports use for the node called {@code name}: itself when no alias mentions it, the
   * node its host belongs to for an address only its host is known by.
   */
  public String canonical(String name) {
    if (name == null) {
      return null;
    }
    String known = canonical.get(name);
    if (known != null) {
      return known;
    }
    if (byHost.isEmpty()) {
      return name;
    }
    if (NodeAddresses.hasPort(name) || isBareHost(name)) {
      String viaHost = byHost.get(NodeAddresses.hostOf(name));
      if (viaHost != null) {
        return viaHost;
      }
    }
    return name;
  }

  /** Every name of the node {@code canonical} reports use (itself included). */
  public Set<String> names(String canonical) {
    return names.getOrDefault(canonical, Set.of(canonical));
  }

  /** Report names of nodes that have more than one name, each with all its names: for summaries. */
  public Map<String, Set<String>> aliased() {
    Map<String, Set<String>> out = new TreeMap<>();
    names.forEach((node, all) -> {
      if (all.size() > 1) {
        out.put(node, all);
      }
    });
    return out;
  }

  public boolean isEmpty() {
    return canonical.isEmpty();
  }

  /** Aliases that were not followed because the engine logs keep their names apart, each with why. */
  public List<String> refused() {
    return refused;
  }

  /** An IP literal without a port: an address several servers may share. */
  static boolean isBareHost(String name) {
    return name != null && !NodeAddresses.hasPort(name) && IP_LITERAL.matcher(name.strip()).matches();
  }

  /** Disjoint sets of names, smallest name as the representative (stable across runs). */
  private static final class UnionFind {
    private final Map<String, String> parent = new HashMap<>();

    void add(String name) {
      parent.putIfAbsent(name, name);
    }

    Set<String> names() {
      return parent.keySet();
    }

    String find(String name) {
      add(name);
      String root = name;
      while (!parent.get(root).equals(root)) {
        root = parent.get(root);
      }
      String cur = name;
      while (!cur.equals(root)) {
        String next = parent.get(cur);
        parent.put(cur, root);
        cur = next;
      }
      return root;
    }

    void union(String a, String b) {
      String ra = find(a);
      String rb = find(b);
      if (!ra.equals(rb)) {
        if (ra.compareTo(rb) < 0) {
          parent.put(rb, ra);
        } else {
          parent.put(ra, rb);
        }
      }
    }
  }
}

package io.kvscope.ingest;

import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.NodeAlias;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The user's {@code --node-alias ALIAS=NODE} settings: how a command line gives them, and the
 * records they become. One rule for every command that ingests ({@code kvscope ingest},
 * {@code analyze} with inputs, {@code scope} and the Spark job it starts), so the same aliases name
 * the same nodes on one machine and on a cluster.
 */
public final class UserAliases {

  /** How a user's alias cites its source: it was given, not read from a file. */
  public static final String SOURCE = "(--node-alias)";

  private UserAliases() {}

  /**
   * {@code ALIAS=NODE} values as ALIAS to NODE, in the order given.
   *
   * @throws IllegalArgumentException for a value without both sides, or an alias given as two nodes
   */
  public static Map<String, String> parse(List<String> values) {
    Map<String, String> aliases = new LinkedHashMap<>();
    for (String value : values) {
      int eq = value.indexOf('=');
      String alias = eq < 0 ? "" : value.substring(0, eq).strip();
      String node = eq < 0 ? "" : value.substring(eq + 1).strip();
      if (alias.isEmpty() || node.isEmpty()) {
        throw new IllegalArgumentException("--node-alias needs ALIAS=NODE, both non-empty");
      }
      String before = aliases.putIfAbsent(alias, node);
      if (before != null && !before.equals(node)) {
        throw new IllegalArgumentException("--node-alias names " + Printable.text(alias) + " as two nodes, "
            + Printable.text(before) + " and " + Printable.text(node) + ": give each alias one node");
      }
    }
    return aliases;
  }

  /** The aliases as the records an index keeps, like any alias read from a file. */
  public static List<NodeAlias> records(Map<String, String> aliases) {
    return aliases.entrySet().stream()
        .map(a -> new NodeAlias(a.getValue(), a.getKey(), AliasOrigin.USER, SOURCE, 0)).toList();
  }
}

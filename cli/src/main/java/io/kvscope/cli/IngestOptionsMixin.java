package io.kvscope.cli;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.UserAliases;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * How files are read into an index: the options of {@code ingest}, and of {@code analyze} when it
 * is given files to ingest first. Builds the one {@link IngestOptions} value.
 */
final class IngestOptionsMixin {

  @Option(names = "--tenant-key", paramLabel = "KEY", split = ",",
      description = "Where the tenant is, first present wins (repeatable, or comma-separated). Default: "
          + "metadata.user_api_key_org_id, metadata.user_api_key_team_id, tenant.id, enduser.id, end_user.")
  List<String> tenantKeys;

  @Option(names = "--node", paramLabel = "NAME",
      description = "Node name for engine logs (default: each file's name up to its first dot).")
  String node;

  @Option(names = "--node-alias", paramLabel = "ALIAS=NODE",
      description = "Another name of a node, e.g. 10.20.1.10:30000=sglang-prefill-a0 (a Prometheus instance, a pod"
          + " name, an address): reports then name it NODE (repeatable; kept in the index, so later runs keep it)."
          + " Names are also learned from pod records, servers' own host/port and PD peers' bootstrap_host."
          + " An ALIAS given twice with different NODEs is an error.")
  List<String> nodeAliasArgs;

  @Option(names = "--mapping", paramLabel = "FILE",
      description = "Mapping for custom JSONL: canonical field -> JSON pointer.")
  Path mapping;

  /** The options; a malformed or colliding {@code --node-alias} is a usage error of {@code command} (exit 2). */
  IngestOptions toOptions(Object command) {
    return new IngestOptions(tenantKeys, node, mapping, nodeAliases(command));
  }

  /** {@code --node-alias} values as ALIAS to NODE, by {@link UserAliases}' rule. */
  private Map<String, String> nodeAliases(Object command) {
    if (nodeAliasArgs == null) {
      return null;
    }
    try {
      return UserAliases.parse(nodeAliasArgs);
    } catch (IllegalArgumentException usage) {
      throw new CommandLine.ParameterException(new CommandLine(command), usage.getMessage());
    }
  }
}

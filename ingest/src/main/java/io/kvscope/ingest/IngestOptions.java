package io.kvscope.ingest;

import java.nio.file.Path;
import java.util.List;

/**
 * Everything that changes how files are read, in one typed value built by the CLI or GUI.
 *
 * @param tenantKeys where to find the tenant, first present wins; dotted paths into a gateway
 *     payload ({@code metadata.user_api_key_org_id}) or attribute names in traces ({@code tenant.id})
 * @param nodeName overrides the node name that engine logs otherwise take from their file name stem
 * @param mappingFile a custom-JSONL mapping (canonical field -> JSON pointer), or {@code null}
 * @param nodeAliases other names of nodes the user gives ({@code --node-alias ALIAS=NODE}): alias
 *     to the node name reports should use
 */
public record IngestOptions(List<String> tenantKeys, String nodeName, Path mappingFile,
    java.util.Map<String, String> nodeAliases) {

  public IngestOptions(List<String> tenantKeys, String nodeName, Path mappingFile) {
    this(tenantKeys, nodeName, mappingFile, java.util.Map.of());
  }

  public static final List<String> DEFAULT_TENANT_KEYS = List.of(
      "metadata.user_api_key_org_id",
      "metadata.user_api_key_team_id",
      "tenant.id",
      "enduser.id",
      "end_user");

  public IngestOptions {
    tenantKeys = tenantKeys == null || tenantKeys.isEmpty() ? DEFAULT_TENANT_KEYS : List.copyOf(tenantKeys);
    nodeAliases = nodeAliases == null ? java.util.Map.of()
        : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(nodeAliases));
  }

  public static IngestOptions defaults() {
    return new IngestOptions(DEFAULT_TENANT_KEYS, null, null);
  }

  public IngestOptions withNodeName(String node) {
    return new IngestOptions(tenantKeys, node, mappingFile, nodeAliases);
  }

  public IngestOptions withMappingFile(Path mapping) {
    return new IngestOptions(tenantKeys, nodeName, mapping, nodeAliases);
  }

  public IngestOptions withNodeAliases(java.util.Map<String, String> aliases) {
    return new IngestOptions(tenantKeys, nodeName, mappingFile, aliases);
  }
}

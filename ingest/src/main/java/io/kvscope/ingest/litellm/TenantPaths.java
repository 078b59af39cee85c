package io.kvscope.ingest.litellm;

import java.util.List;

/**
 * The configured tenant keys read as dotted paths into a payload ({@code metadata.user_api_key_org_id},
 * {@code end_user}): which paths to descend into while streaming, and which value wins.
 */
final class TenantPaths {

  private final List<String> keys;

  TenantPaths(List<String> keys) {
    this.keys = List.copyOf(keys);
  }

  List<String> keys() {
    return keys;
  }

  /** True when {@code path} is a tenant key. */
  boolean isKey(String path) {
    return keys.contains(path);
  }

  /** True when {@code path} is a tenant key or leads to one, so its value must be read. */
  boolean leadsToKey(String path) {
    for (String key : keys) {
      if (key.equals(path) || (key.startsWith(path) && key.charAt(path.length()) == '.')) {
        return true;
      }
    }
    return false;
  }
}

package io.kvscope.ingest.record;

/**
 * Two names of one engine node: {@code alias} (an address, a pod name, a scrape target, a peer's
 * {@code bootstrap_host}) denotes the node the record calls {@code node}. Logs, metrics and
 * deployment records each name nodes their own way; the index keeps every alias as read, and the
 * node identity unites them when the index is read, so a late or corrected alias never needs the
 * evidence rewritten.
 *
 * <p>An alias that is a bare host (no port) is weak: several servers may share a host, so it only
 * names a node when no other node claims that host.
 */
public record NodeAlias(String node, String alias, AliasOrigin origin, String sourceFile, long sourceLine)
    implements Ingested {

  public NodeAlias {
    if (node == null || node.isBlank() || alias == null || alias.isBlank()) {
      throw new IllegalArgumentException("a node alias needs a node and an alias (" + sourceFile + ":" + sourceLine + ")");
    }
    if (origin == null) {
      throw new IllegalArgumentException("a node alias needs its origin (" + sourceFile + ":" + sourceLine + ")");
    }
    node = node.strip();
    alias = alias.strip();
  }
}

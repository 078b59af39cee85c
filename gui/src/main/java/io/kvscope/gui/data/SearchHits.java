package io.kvscope.gui.data;

import java.util.Set;

/**
 * What a query matched: how many documents in the whole index, and which of the asked-about ids
 * (request ids and engine rids of findings) were among them.
 */
public record SearchHits(long totalMatches, Set<String> ids) {

  public SearchHits {
    ids = Set.copyOf(ids);
  }
}

package io.kvscope.gui.data;

import java.util.List;
import java.util.Set;

/**
 * What a query matched: how many documents in the whole index, which of the asked-about ids
 * (request ids and engine rids of findings) were among them, and what a person should know of how
 * the query was read (the index's own notes, as {@code kvscope search} prints them).
 */
public record SearchHits(long totalMatches, Set<String> ids, List<String> notes) {

  public SearchHits {
    ids = Set.copyOf(ids);
    notes = List.copyOf(notes);
  }
}

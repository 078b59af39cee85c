package io.kvscope.ingest.record;

import java.util.List;

/**
 * Where a request record merged from several records came from, and where they disagreed. A record
 * read from one line has none; the merge ({@code io.kvscope.ingest.merge.RequestMerge}) gives one.
 *
 * @param records how many records were merged
 * @param sources the merged records as {@code "<origin> <file>:<line>"}, highest origin first, at
 *     most {@link #MAX_LISTED}
 * @param conflicts the disagreements, one sentence each, at most {@link #MAX_LISTED}; text fields
 *     are described by length and digest, never quoted
 * @param conflictCount every disagreement, listed or not
 */
public record Provenance(int records, List<String> sources, List<String> conflicts, int conflictCount) {

  /** Lists are cut here: a request claimed by thousands of forged records still has a small document. */
  public static final int MAX_LISTED = 16;

  public Provenance {
    if (records < 1) {
      throw new IllegalArgumentException("a merged request has at least one record, was " + records);
    }
    sources = List.copyOf(sources.subList(0, Math.min(MAX_LISTED, sources.size())));
    conflicts = List.copyOf(conflicts.subList(0, Math.min(MAX_LISTED, conflicts.size())));
    if (conflictCount < conflicts.size()) {
      throw new IllegalArgumentException("conflictCount " + conflictCount + " is below the listed " + conflicts.size());
    }
  }

  public boolean conflicted() {
    return conflictCount > 0;
  }
}

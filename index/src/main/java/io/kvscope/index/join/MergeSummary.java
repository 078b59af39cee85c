package io.kvscope.index.join;

import io.kvscope.index.doc.Schema;
import java.util.List;

/**
 * What one ingest run's merge did: records read in this run that joined a request another record
 * already held, and where those records disagreed.
 *
 * @param recordsMerged records that joined a request held by another record (each counted once)
 * @param identicalCopies of those, exact copies of a record already held (log shipping, retries)
 * @param requestsMerged requests that gained a record in this run
 * @param requestsWithConflicts of those, requests whose records disagree (see {@link Schema#MERGE_CONFLICT})
 * @param conflictSamples the first disagreements, as {@code request_id: conflict}
 */
public record MergeSummary(long recordsMerged, long identicalCopies, long requestsMerged, long requestsWithConflicts,
    List<String> conflictSamples) {

  public static final MergeSummary NONE = new MergeSummary(0, 0, 0, 0, List.of());

  public MergeSummary {
    conflictSamples = List.copyOf(conflictSamples);
  }
}

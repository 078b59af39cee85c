package io.kvscope.index;

import io.kvscope.index.join.LinkSummary;
import io.kvscope.index.join.MergeSummary;
import io.kvscope.ingest.BadInput;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one ingest run, for the final summary and for scripts.
 *
 * @param filesSeen every regular file found under the inputs
 * @param filesIngested files read in this run (in full or resumed)
 * @param filesUnchanged files skipped because a complete checkpoint matched
 * @param unrecognized files whose content no ingestor claimed
 * @param recordsByFormat records read per format name
 * @param itemsByType documents written per type (request, engine_event, epoch, node_hour)
 * @param badRecords malformed lines and unreadable files (all in the quarantine file)
 * @param badSamples the first bad inputs, for display
 * @param requestsRead request records read in this run
 * @param merge records of one request merged together (copies, gateway and trace) and their conflicts
 * @param bytesRead the size of the files read in this run (not those skipped as unchanged)
 * @param link the gateway-engine join, or {@code null} when it was not run
 * @param quarantine where the raw bad lines went, or {@code null} when there were none
 * @param problems every file with bad lines or skipped as a whole, in the order they were met
 * @param ownOutputs kvscope's own outputs found among the inputs (reports, bundles, findings.arrow,
 *     truth.json, quarantine files, other indexes), each with what it is: skipped, never evidence
 */
public record IngestSummary(
    int filesSeen,
    int filesIngested,
    int filesUnchanged,
    List<String> unrecognized,
    Map<String, Long> recordsByFormat,
    Map<String, Long> itemsByType,
    long badRecords,
    List<BadInput> badSamples,
    long requestsRead,
    MergeSummary merge,
    long bytesRead,
    long elapsedMillis,
    LinkSummary link,
    Path quarantine,
    List<FileProblem> problems,
    List<String> ownOutputs) {

  public IngestSummary {
    unrecognized = List.copyOf(unrecognized);
    recordsByFormat = Map.copyOf(recordsByFormat);
    itemsByType = Map.copyOf(itemsByType);
    badSamples = List.copyOf(badSamples);
    problems = List.copyOf(problems);
    ownOutputs = List.copyOf(ownOutputs);
  }

  public long records() {
    return recordsByFormat.values().stream().mapToLong(Long::longValue).sum();
  }

  public double megabytesPerSecond() {
    return elapsedMillis == 0 ? 0 : bytesRead / 1e6 / (elapsedMillis / 1e3);
  }
}

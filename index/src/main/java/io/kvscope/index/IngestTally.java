package io.kvscope.index;

import io.kvscope.index.join.DecodedEvents;
import io.kvscope.index.join.EngineFactsAtWrite;
import io.kvscope.index.store.DocumentWriters;
import io.kvscope.ingest.BadInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one ingest run has met so far, across its files: counts by format and record type, the
 * files skipped or unrecognized, kvscope's own outputs among the inputs, and the bad inputs (told
 * to the progress, sampled, quarantined). The writers and the engine-facts lookup the run's files
 * share live here too, so that every file's sink reaches them.
 */
final class IngestTally implements InputFiles.Skips {

  private static final int MAX_BAD_SAMPLES = 50;

  final Map<String, Long> recordsByFormat = new TreeMap<>();
  final Map<String, Long> itemsByType = new TreeMap<>();
  final List<String> unrecognized = new ArrayList<>();
  /** kvscope's own outputs met, each with what it is. */
  final List<String> ownOutputs = new ArrayList<>();
  final List<BadInput> badSamples = new ArrayList<>();
  long badRecords;
  long requestsRead;
  int filesIngested;
  int filesUnchanged;
  long bytesBefore;
  long bytesIngested; // of the files read in this run: unchanged ones cost nothing
  long docsSinceCommit;
  DocumentWriters writers;
  EngineFactsAtWrite facts; // opened before the first file that may carry requests
  /** The engine events the join at write decoded, for the link to take rather than decode again. */
  final DecodedEvents decodedEvents = new DecodedEvents();

  private final IngestProgress progress;
  private final QuarantineFile quarantine;
  /** Per file with problems, in the order met: records, bad lines, first bad input, skip reason. */
  private final Map<String, FileProblem> problems = new LinkedHashMap<>();

  IngestTally(IngestProgress progress, QuarantineFile quarantine) {
    this.progress = progress;
    this.quarantine = quarantine;
  }

  /** One of kvscope's own outputs (or indexes): skipped, never evidence, not a problem. */
  @Override
  public void ownOutput(String file, String what) {
    ownOutputs.add(file + " (" + what + ")");
  }

  /** A file skipped as a whole: not a bad record, but on the problem list. */
  @Override
  public void skipped(String file, String because) {
    problems.put(file, new FileProblem(file, 0, 0, null, because));
  }

  void recordsOf(String file, long records) {
    problems.computeIfPresent(file, (f, p) -> new FileProblem(f, records, p.bad(), p.first(), p.skippedBecause()));
  }

  List<FileProblem> problems() {
    return List.copyOf(problems.values());
  }

  /** Bad records of {@code file} in this run. */
  long badIn(String file) {
    FileProblem problem = problems.get(file);
    return problem == null ? 0 : problem.bad();
  }

  /** A bad input: on its file's problem, counted, sampled, told, and kept in quarantine with {@code raw}. */
  void bad(BadInput bad, String raw) {
    problems.merge(bad.file(), new FileProblem(bad.file(), 0, 1, bad, null),
        (was, one) -> new FileProblem(was.file(), was.records(), was.bad() + 1, was.first() == null ? bad : was.first(),
            null));
    badRecords++;
    if (badSamples.size() < MAX_BAD_SAMPLES) {
      badSamples.add(bad);
    }
    progress.bad(bad);
    quarantine.write(bad, raw);
  }

  void closeFacts() throws IOException {
    if (facts != null) {
      facts.close();
      facts = null;
    }
  }
}

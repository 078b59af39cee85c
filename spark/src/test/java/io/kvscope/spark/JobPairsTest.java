package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.analysis.Analysis;
import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.analyzers.CandidatePairs;
import io.kvscope.analysis.analyzers.CrossTenantOverlap;
import io.kvscope.analysis.analyzers.PairsFile;
import io.kvscope.analysis.analyzers.RunsFile;
import io.kvscope.analysis.impact.Report;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.index.fingerprint.CandidateSink;
import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.index.fingerprint.JoinStats;
import io.kvscope.index.fingerprint.PairFilter;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.fingerprint.BoilerplateCutoff;
import io.kvscope.model.fingerprint.FrequencyHistogram;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvscope scope}'s analysis takes the general join's candidates, and the histogram its
 * boilerplate cut-off is learned from, from the pairs file the job wrote beside its index
 * ({@link PairsFile}), and refuses one that is not that index's. The job's
 * run is {@link LocalRun}'s; {@link ScopeJobTest} holds the report this gives to the single-machine one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobPairsTest {

  private Path index;
  private Path pairs;
  private List<Candidate> taken;
  private Report withFile;

  @BeforeAll
  void analyseTheJobsIndexWithItsPairs() throws IOException {
    LocalRun run = LocalRun.shared();
    index = run.summary().index();
    pairs = DriverPairs.fileOf(run.out());
    taken = new ArrayList<>();
    withFile = analyse(index, recording(PairsFile.at(pairs), taken));
  }

  @Test
  void theAnalysisTakesItsCandidatesFromTheFileAndTheyAreTheIndexJoins() throws IOException {
    List<Candidate> joined = new ArrayList<>();
    Report own = analyse(index, recording(CandidatePairs.INDEX_JOIN, joined));

    assertThat(origin(withFile)).containsEntry("from", "pairs file")
        .containsEntry("pairs_in_file", LocalRun.shared().summary().join().pairs())
        .containsEntry("pairs_taken", (long) taken.size());
    assertThat(origin(own)).containsEntry("from", "index join");
    assertThat(taken).as("the job's pairs through the analysis' filter").isNotEmpty().isEqualTo(joined);
    assertThat(withFile.findings()).isEqualTo(own.findings());
    assertThat(origin(withFile)).containsEntry("tenant_frequencies", "pairs file");
    assertThat(parameter(withFile, "boilerplate_tenant_cutoff")).as("learned from the job's histogram")
        .isEqualTo(LocalRun.shared().summary().boilerplateCutoff()).isEqualTo(parameter(own, "boilerplate_tenant_cutoff"));
    assertThat(parameter(withFile, "shared_fingerprints_above_cutoff")).isNotNull()
        .isEqualTo(parameter(own, "shared_fingerprints_above_cutoff"));
  }

  /** The job's histogram in the file is the one the analysis' walk over every fingerprint term of the index fills. */
  @Test
  void theFilesHistogramIsTheIndexWalks() throws IOException {
    FrequencyHistogram walked;
    FrequencyHistogram fromFile;
    try (IndexSearch search = IndexSearch.open(index)) {
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults());
      RequestColumns columns = context.requestColumns();
      FingerprintJoin join = new FingerprintJoin(search.reader(), doc -> columns.isSource(doc) ? columns.tenant(doc) : -1);
      walked = CandidatePairs.INDEX_JOIN.frequencies(context, join);
      fromFile = PairsFile.at(pairs).frequencies(context, join);
    }

    assertThat(walked.totalTerms()).isPositive().isEqualTo(LocalRun.shared().summary().sharedFingerprints());
    assertThat(fromFile.counts()).isEqualTo(walked.counts());
    assertThat(fromFile.maxDocFrequency()).isEqualTo(walked.maxDocFrequency());
    assertThat(BoilerplateCutoff.learn(fromFile)).isEqualTo(BoilerplateCutoff.learn(walked));
  }

  /** Another histogram in the file gives another cut-off: the analysis learns it from the file, walking nothing. */
  @Test
  void theAnalysisLearnsItsCutoffFromTheFilesHistogram(@TempDir Path dir) throws IOException {
    PairsFile.Header job = PairsFile.at(pairs).header();
    long[] counts = new long[BoilerplateCutoff.TRACKED_TENANT_FREQUENCIES + 1];
    counts[20] = job.tenantFrequencies().stream().mapToLong(Long::longValue).sum();
    FrequencyHistogram other = FrequencyHistogram.of(counts, job.maxDocFrequency());
    assertThat(BoilerplateCutoff.learn(other)).isEqualTo(20)
        .isNotEqualTo(LocalRun.shared().summary().boilerplateCutoff());
    Path file = dir.resolve(PairsFile.FILE_NAME);
    PairsFile.write(file, new PairsFile.Header(job.job(), job.index(),
        PairsFile.joinSettings(CrossTenantOverlap.generalJoin(20)), job.horizonMillis(), job.sharedFingerprints(),
        job.skippedBoilerplate(), other), pairsInFile().iterator());

    Report report = analyse(index, PairsFile.at(file));

    assertThat(parameter(report, "boilerplate_tenant_cutoff")).isEqualTo(20);
    assertThat(parameter(report, "shared_fingerprints_above_cutoff")).isEqualTo(0L);
  }

  /**
   * A recipient's pairs left out of the file take away exactly that recipient's overlap findings:
   * the analysis found them through the file's pairs, not through a join of its own.
   */
  @Test
  void aRecipientLeftOutOfTheFileLosesExactlyItsOverlapFindings(@TempDir Path dir) throws IOException {
    OverlapRecipient found = OverlapRecipient.among(index, taken, withFile);
    List<Candidate> all = pairsInFile();
    Path without = dir.resolve(PairsFile.FILE_NAME);
    PairsFile.write(without, PairsFile.at(pairs).header(),
        all.stream().filter(c -> c.recipientDoc() != found.doc()).iterator());

    Report fewer = analyse(index, PairsFile.at(without));

    assertThat(fewer.findings()).isEqualTo(found.findingsWithout(withFile));
    assertThat(origin(fewer)).containsEntry("pairs_in_file", (long) all.size() - all.stream()
        .filter(c -> c.recipientDoc() == found.doc()).count());
  }

  /**
   * A recipient of the general join's candidates {@code taken} with overlap findings in {@code
   * report}: its document and its request id.
   */
  record OverlapRecipient(int doc, String request) {

    private static final Set<FindingKind> OVERLAP = Set.of(FindingKind.CROSS_TENANT_OVERLAP,
        FindingKind.SAME_TENANT_REUSE);

    static OverlapRecipient among(Path index, List<Candidate> taken, Report report) throws IOException {
      try (IndexSearch search = IndexSearch.open(index)) {
        for (Candidate candidate : taken) {
          String id = search.reader().storedFields().document(candidate.recipientDoc()).get(Schema.REQUEST_ID);
          if (report.findings().stream().anyMatch(f -> OVERLAP.contains(f.kind()) && f.requestId().equals(id))) {
            return new OverlapRecipient(candidate.recipientDoc(), id);
          }
        }
      }
      throw new AssertionError("no finding from the general join's candidates");
    }

    /** The findings of {@code report} but this recipient's overlap findings, which must be some. */
    List<Finding> findingsWithout(Report report) {
      List<Finding> kept = report.findings().stream()
          .filter(f -> !(OVERLAP.contains(f.kind()) && f.requestId().equals(request))).toList();
      assertThat(kept).hasSizeLessThan(report.findings().size());
      return kept;
    }
  }

  /** The same commit copied elsewhere is the same index; once anything is written to it, the file is stale. */
  @Test
  void aFileOfAnotherCommitOfTheIndexIsRefusedInWords(@TempDir Path dir) throws IOException {
    Path copy = dir.resolve("index");
    copyTree(index, copy);
    assertThat(startOn(copy)).as("a copy of the same commit").containsEntry("from", "pairs file");

    try (IndexStore store = IndexStore.open(copy)) {
      store.put(Documents.of(new NodeAlias("decode-0", "written-later", AliasOrigin.USER, "(--node-alias)", 0)));
      store.commit();
    }

    assertThatThrownBy(() -> startOn(copy)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(PairsFile.FILE_NAME).hasMessageContaining("stale or foreign")
        .hasMessageContaining("Run kvscope scope again");
  }

  @Test
  void noFileIsRefusedInWords(@TempDir Path dir) {
    assertThatThrownBy(() -> analyse(index, PairsFile.at(dir.resolve(PairsFile.FILE_NAME))))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("no candidate pairs file at");
  }

  /** Every pair of the job's file. */
  private List<Candidate> pairsInFile() throws IOException {
    List<Candidate> all = new ArrayList<>();
    try (IndexSearch search = IndexSearch.open(index);
         CandidatePairs.Started started = PairsFile.at(pairs).start(new AnalysisContext(search,
             AnalysisOptions.defaults()), null, CrossTenantOverlap.generalJoin(LocalRun.shared().summary()
             .boilerplateCutoff()), PairFilter.ALL)) {
      started.emit(all::add);
    }
    return all;
  }

  private Map<String, Object> startOn(Path copy) throws IOException {
    try (IndexSearch search = IndexSearch.open(copy);
         CandidatePairs.Started started = PairsFile.at(pairs).start(new AnalysisContext(search,
             AnalysisOptions.defaults()), null, CrossTenantOverlap.generalJoin(LocalRun.shared().summary()
             .boilerplateCutoff()), PairFilter.ALL)) {
      return started.origin();
    }
  }

  private static Report analyse(Path index, CandidatePairs pairs) throws IOException {
    try (IndexSearch search = IndexSearch.open(index)) {
      return Analysis.standard(pairs).run(search, AnalysisOptions.defaults(), Analysis.Progress.NONE);
    }
  }

  private static Object parameter(Report report, String name) {
    return report.parameters().get(CrossTenantOverlap.NAME + "." + name);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> origin(Report report) {
    return (Map<String, Object>) report.parameters().get(CrossTenantOverlap.NAME + ".candidate_pairs");
  }

  /** {@code pairs} (with its runs, if any), with every candidate it emits also added to {@code taken}. */
  static CandidatePairs recording(CandidatePairs pairs, List<Candidate> taken) {
    return new CandidatePairs() {
      @Override
      public FrequencyHistogram frequencies(AnalysisContext context, FingerprintJoin join) throws IOException {
        return pairs.frequencies(context, join);
      }

      @Override
      public CandidatePairs.Started start(AnalysisContext context, FingerprintJoin join, JoinOptions options,
          PairFilter filter) throws IOException {
        return recordingStarted(pairs.start(context, join, options, filter), taken);
      }

      @Override
      public Optional<RunsFile> runs(AnalysisContext context) throws IOException {
        return pairs.runs(context);
      }
    };
  }

  private static CandidatePairs.Started recordingStarted(CandidatePairs.Started started, List<Candidate> taken) {
    return new CandidatePairs.Started() {
      @Override
      public JoinStats emit(CandidateSink sink) throws IOException {
        return started.emit(candidate -> {
          taken.add(candidate);
          sink.accept(candidate);
        });
      }

      @Override
      public long walkCpuNanos() {
        return started.walkCpuNanos();
      }

      @Override
      public Map<String, Object> origin() {
        return started.origin();
      }

      @Override
      public void close() throws IOException {
        started.close();
      }
    };
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Files.copy(file, to.resolve(from.relativize(file).toString()));
      }
    }
  }
}

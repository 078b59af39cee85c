package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.analysis.Analysis;
import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.analyzers.CandidatePairs;
import io.kvscope.analysis.analyzers.CrossTenantOverlap;
import io.kvscope.analysis.analyzers.PairsFile;
import io.kvscope.analysis.impact.Report;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.index.fingerprint.CandidateSink;
import io.kvscope.index.fingerprint.JoinStats;
import io.kvscope.index.fingerprint.PairFilter;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvscope scope}'s analysis takes the general join's candidates from the pairs file the job
 * wrote beside its index ({@link PairsFile}), and refuses one that is not that index's. The job's
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
  }

  /**
   * A recipient's pairs left out of the file take away exactly that recipient's overlap findings:
   * the analysis found them through the file's pairs, not through a join of its own.
   */
  @Test
  void aRecipientLeftOutOfTheFileLosesExactlyItsOverlapFindings(@TempDir Path dir) throws IOException {
    Set<FindingKind> overlap = Set.of(FindingKind.CROSS_TENANT_OVERLAP, FindingKind.SAME_TENANT_REUSE);
    int recipient = -1;
    String request = null;
    try (IndexSearch search = IndexSearch.open(index)) {
      for (Candidate candidate : taken) {
        String id = search.reader().storedFields().document(candidate.recipientDoc()).get(Schema.REQUEST_ID);
        if (withFile.findings().stream().anyMatch(f -> overlap.contains(f.kind()) && f.requestId().equals(id))) {
          recipient = candidate.recipientDoc();
          request = id;
          break;
        }
      }
    }
    assertThat(request).as("a finding from the general join's candidates").isNotNull();
    List<Candidate> all = new ArrayList<>();
    try (IndexSearch search = IndexSearch.open(index);
         CandidatePairs.Started started = PairsFile.at(pairs).start(new AnalysisContext(search,
             AnalysisOptions.defaults()), null, CrossTenantOverlap.generalJoin(LocalRun.shared().summary()
             .boilerplateCutoff()), PairFilter.ALL)) {
      started.emit(all::add);
    }
    int left = recipient;
    Path without = dir.resolve(PairsFile.FILE_NAME);
    PairsFile.write(without, PairsFile.at(pairs).header(),
        all.stream().filter(c -> c.recipientDoc() != left).iterator());

    Report fewer = analyse(index, PairsFile.at(without));

    String gone = request;
    List<Finding> expected = withFile.findings().stream()
        .filter(f -> !(overlap.contains(f.kind()) && f.requestId().equals(gone))).toList();
    assertThat(expected).hasSizeLessThan(withFile.findings().size());
    assertThat(fewer.findings()).isEqualTo(expected);
    assertThat(origin(fewer)).containsEntry("pairs_in_file", (long) all.size() - all.stream()
        .filter(c -> c.recipientDoc() == left).count());
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

  @SuppressWarnings("unchecked")
  private static Map<String, Object> origin(Report report) {
    return (Map<String, Object>) report.parameters().get(CrossTenantOverlap.NAME + ".candidate_pairs");
  }

  /** {@code pairs}, with every candidate it emits also added to {@code taken}. */
  private static CandidatePairs recording(CandidatePairs pairs, List<Candidate> taken) {
    return (context, join, options, filter) -> {
      CandidatePairs.Started started = pairs.start(context, join, options, filter);
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

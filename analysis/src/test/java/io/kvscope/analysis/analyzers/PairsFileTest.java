package io.kvscope.analysis.analyzers;

import static org.assertj.core.api.Assertions.assertThat;
import static io.kvscope.analysis.TestIndex.request;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.RequestColumns;
import io.kvscope.analysis.TestIndex;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.index.fingerprint.FingerprintJoin;
import io.kvscope.index.fingerprint.JoinOptions;
import io.kvscope.index.fingerprint.PairFilter;
import io.kvscope.model.fingerprint.BoilerplateCutoff;
import io.kvscope.model.fingerprint.FrequencyHistogram;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Candidate pairs and the job's frequency histogram written to a file for one index commit and read
 * back through the analysis' pair filter, and every file that does not belong to the analysis
 * refused in words, on {@link OnePassage}.
 */
class PairsFileTest {

  private static final JoinOptions OPTIONS = CrossTenantOverlap.generalJoin(4);
  private static final long HORIZON = AnalysisOptions.DEFAULT_HORIZON.toMillis();

  @TempDir Path tmp;

  private IndexSearch search;
  private FingerprintJoin join;
  private final List<Candidate> joined = new ArrayList<>();

  @BeforeEach
  void index() throws Exception {
    OnePassage one = OnePassage.index(tmp.resolve("index"));
    search = one.search();
    join = one.join();
    join.run(OPTIONS, PairFilter.ALL, joined::add);
  }

  @AfterEach
  void close() throws Exception {
    search.close();
  }

  @Test
  void theFilesPairsAreTheJoinsThroughTheAnalysisFilter() throws Exception {
    Path file = written(header(PairsFile.indexCommit(search.reader()), OPTIONS, HORIZON), joined);
    int firstRecipient = joined.getFirst().recipientDoc();

    List<Candidate> read = new ArrayList<>();
    try (CandidatePairs.Started pairs = PairsFile.at(file).start(context(), join, OPTIONS,
        (recipient, source) -> recipient != firstRecipient)) {
      assertThat(pairs.emit(read::add).candidates()).isEqualTo(read.size());
      assertThat(pairs.origin()).containsEntry("from", "pairs file").containsEntry("pairs_in_file", 6L)
          .containsEntry("pairs_taken", 4L);
    }

    assertThat(joined).hasSize(6);
    assertThat(read).isEqualTo(joined.stream().filter(c -> c.recipientDoc() != firstRecipient).toList());
  }

  /** The analysis learns its cut-off from the histogram in the file, which need not be the index's. */
  @Test
  void theFrequenciesAreTheFilesNotAWalkOfTheIndex() throws Exception {
    FrequencyHistogram walked = CandidatePairs.INDEX_JOIN.frequencies(context(), join);
    assertThat(walked.totalTerms()).isPositive();
    Path file = written(new PairsFile.Header("test-job", PairsFile.indexCommit(search.reader()),
        PairsFile.joinSettings(OPTIONS), HORIZON, 0, 0, walked), joined);
    assertThat(PairsFile.at(file).frequencies(context(), join).counts()).isEqualTo(walked.counts());

    long[] counts = new long[BoilerplateCutoff.TRACKED_TENANT_FREQUENCIES + 1];
    counts[20] = 100;
    FrequencyHistogram other = FrequencyHistogram.of(counts, 33);
    Path otherFile = written(new PairsFile.Header("test-job", PairsFile.indexCommit(search.reader()),
        PairsFile.joinSettings(OPTIONS), HORIZON, 0, 0, other), joined);

    FrequencyHistogram read = PairsFile.at(otherFile).frequencies(context(), join);
    assertThat(read.counts()).isEqualTo(counts).isNotEqualTo(walked.counts());
    assertThat(read.maxDocFrequency()).isEqualTo(33);
    assertThat(BoilerplateCutoff.learn(read)).isEqualTo(20);
  }

  /** The job fingerprints no text copy, so an index holding copies walks its own terms, whatever the file holds. */
  @Test
  void anIndexWithTextCopiesWalksItsOwnTermsAndJoinsItself() throws Exception {
    TestIndex test = new TestIndex(tmp.resolve("copies"));
    String[] tenants = {"a", "b", "c"};
    for (int i = 0; i < tenants.length; i++) {
      test.servedOn(request("r" + i, tenants[i], "2026-03-02T10:0" + i + ":00Z", 40, 200)
          .promptText("Question " + i).responseText("Note: " + OnePassage.PASSAGE).build(), "decode-0");
    }
    test.promptCopy("r0", "Quoted: " + OnePassage.PASSAGE, "trace t.json:1", true);
    long[] counts = new long[BoilerplateCutoff.TRACKED_TENANT_FREQUENCIES + 1];
    counts[20] = 100;
    try (IndexSearch copies = test.open()) {
      AnalysisContext context = new AnalysisContext(copies, AnalysisOptions.defaults());
      RequestColumns columns = context.requestColumns();
      assertThat(columns.hasCopies()).isTrue();
      FingerprintJoin withCopies = new FingerprintJoin(copies.reader(),
          doc -> columns.isSource(doc) || columns.copy(doc) != null ? columns.tenant(doc) : -1);
      FrequencyHistogram walked = CandidatePairs.INDEX_JOIN.frequencies(context, withCopies);
      Path file = written(new PairsFile.Header("test-job", PairsFile.indexCommit(copies.reader()),
          PairsFile.joinSettings(OPTIONS), HORIZON, 0, 0, FrequencyHistogram.of(counts, 33)), List.of());

      assertThat(walked.totalTerms()).isPositive();
      assertThat(PairsFile.at(file).frequencies(context, withCopies).counts()).isEqualTo(walked.counts());
      try (CandidatePairs.Started pairs = PairsFile.at(file).start(context, withCopies, OPTIONS, PairFilter.ALL)) {
        assertThat(pairs.origin()).containsEntry("from", "index join");
      }
    }
  }

  @Test
  void aFileOfAnotherIndexCommitIsRefusedAsStaleOrForeign() throws Exception {
    Path file = written(header("0123456789abcdef/7", OPTIONS, HORIZON), joined);

    assertThatThrownBy(() -> PairsFile.at(file).start(context(), join, OPTIONS, PairFilter.ALL))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining(file.toString())
        .hasMessageContaining("stale or foreign").hasMessageContaining("commit 0123456789abcdef/7");
    assertThatThrownBy(() -> PairsFile.at(file).frequencies(context(), join))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("stale or foreign");
  }

  @Test
  void aHistogramOfAnotherShapeIsRefused() throws Exception {
    Path file = written(new PairsFile.Header("test-job", PairsFile.indexCommit(search.reader()),
        PairsFile.joinSettings(OPTIONS), HORIZON, 0, 0, new FrequencyHistogram(8)), joined);

    assertThatThrownBy(() -> PairsFile.at(file).frequencies(context(), join))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining(file.toString())
        .hasMessageContaining("over 9 tenant frequencies");
  }

  @Test
  void aFileJoinedWithAnotherCutoffIsRefused() throws Exception {
    Path file = written(header(PairsFile.indexCommit(search.reader()), CrossTenantOverlap.generalJoin(9), HORIZON),
        joined);

    assertThatThrownBy(() -> PairsFile.at(file).start(context(), join, OPTIONS, PairFilter.ALL))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("tenants<=9").hasMessageContaining("tenants<=4");
  }

  @Test
  void aFileJoinedOverAShorterHorizonThanTheAnalysisIsRefused() throws Exception {
    Path file = written(header(PairsFile.indexCommit(search.reader()), OPTIONS, Duration.ofDays(1).toMillis()), joined);

    assertThatThrownBy(() -> PairsFile.at(file).start(context(), join, OPTIONS, PairFilter.ALL))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("--horizon");
  }

  @Test
  void pairsOutOfOrderAreADamagedFileNamedWithThePair() throws Exception {
    Path file = written(header(PairsFile.indexCommit(search.reader()), OPTIONS, HORIZON), joined.reversed());

    try (CandidatePairs.Started pairs = PairsFile.at(file).start(context(), join, OPTIONS, PairFilter.ALL)) {
      assertThatThrownBy(() -> pairs.emit(candidate -> {})).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(file + ", pair 2").hasMessageContaining("damaged");
    }
  }

  @Test
  void aFileThatIsNoPairsFileIsRefusedByName() throws Exception {
    Path file = tmp.resolve(PairsFile.FILE_NAME);
    Files.writeString(file, "recipient_doc,source_doc\n1,2\n");

    assertThatThrownBy(() -> PairsFile.at(file).start(context(), join, OPTIONS, PairFilter.ALL))
        .hasMessageContaining(file.toString()).hasMessageContaining("cannot be read as a candidate pairs file");
    assertThatThrownBy(() -> PairsFile.at(tmp.resolve("none.arrow")).start(context(), join, OPTIONS, PairFilter.ALL))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("no candidate pairs file at");
  }

  private AnalysisContext context() throws Exception {
    return new AnalysisContext(search, AnalysisOptions.defaults());
  }

  private static PairsFile.Header header(String commit, JoinOptions options, long horizon) {
    return new PairsFile.Header("test-job", commit, PairsFile.joinSettings(options), horizon, 0, 0,
        BoilerplateCutoff.histogram());
  }

  private Path written(PairsFile.Header header, List<Candidate> pairs) throws Exception {
    Path file = tmp.resolve(PairsFile.FILE_NAME);
    assertThat(PairsFile.write(file, header, pairs.iterator())).isEqualTo(pairs.size());
    return file;
  }
}

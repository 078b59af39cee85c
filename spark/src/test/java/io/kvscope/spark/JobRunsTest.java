package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.analysis.Analysis;
import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.analyzers.CandidatePairs;
import io.kvscope.analysis.analyzers.CrossTenantOverlap;
import io.kvscope.analysis.analyzers.PairsFile;
import io.kvscope.analysis.analyzers.RunsFile;
import io.kvscope.analysis.impact.Report;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.fingerprint.Candidate;
import io.kvscope.model.evidence.PassageRules;
import io.kvscope.model.fingerprint.SharedSpan;
import io.kvscope.model.fingerprint.SpanVerifier;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.WordTokenizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.lucene.index.IndexReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvscope scope}'s analysis takes the runs of the general join's candidates from the runs
 * file the job's stage 10 wrote ({@link RunsFile}) instead of verifying the index's texts itself:
 * the file's runs are the verifier's on the index's texts for every candidate the analysis takes,
 * recipient by recipient, the findings are the same, and a file that is not of the analysed index's
 * commit or of its {@code --min-span} is refused in words. The job's run is {@link LocalRun}'s.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobRunsTest {

  private Path index;
  private Path pairs;
  private Path runs;
  private List<Candidate> taken;
  private Report withRuns;

  @BeforeAll
  void analyseTheJobsIndexWithItsPairsAndRuns() throws IOException {
    LocalRun run = LocalRun.shared();
    index = run.summary().index();
    pairs = DriverPairs.fileOf(run.out());
    runs = DriverRuns.fileOf(run.out());
    taken = new ArrayList<>();
    withRuns = analyse(index, JobPairsTest.recording(PairsFile.at(pairs).withRuns(RunsFile.at(runs)), taken));
  }

  /**
   * Ground truth from the model's verifier on the texts the index stores, at the minimums the
   * analysis keeps: 2T with a source, {@link PassageRules#MIN_WORDS} with the own prompt.
   */
  @Test
  void theFilesRunsAreTheVerifiersOnTheIndexsTextsForEveryCandidateTaken() throws IOException {
    int t = AnalysisOptions.DEFAULT_MIN_SPAN_TOKENS;
    Map<Integer, List<String>> expected = new TreeMap<>();
    Map<Integer, List<String>> fromFile = new TreeMap<>();
    int parts = 0;
    try (IndexSearch search = IndexSearch.open(index)) {
      IndexReader reader = search.reader();
      SpanVerifier verifier = new SpanVerifier(new AnalysisContext(search, AnalysisOptions.defaults()).index()
          .fingerprints().withThreshold(t));
      Map<Integer, List<Candidate>> byRecipient = new LinkedHashMap<>();
      taken.forEach(c -> byRecipient.computeIfAbsent(c.recipientDoc(), r -> new ArrayList<>()).add(c));
      for (Map.Entry<Integer, List<Candidate>> recipient : byRecipient.entrySet()) {
        int doc = recipient.getKey();
        TokenizedText response = tokenized(reader, doc, Schema.RESPONSE_TEXT);
        List<String> lines = new ArrayList<>();
        for (Candidate c : recipient.getValue()) {
          for (RunsFile.Side side : List.of(RunsFile.Side.SOURCE_RESPONSE, RunsFile.Side.SOURCE_PROMPT)) {
            boolean reply = side == RunsFile.Side.SOURCE_RESPONSE;
            if ((reply ? c.sharedWithSourceResponse() : c.sharedWithSourcePrompt()) == 0) {
              continue;
            }
            TokenizedText source = tokenized(reader, c.sourceDoc(), reply ? Schema.RESPONSE_TEXT : Schema.PROMPT_TEXT);
            if (source != null) {
              for (SharedSpan span : verifier.verify(response, source, 2 * t)) {
                span.parts().forEach(m -> lines.add(side + " " + c.sourceDoc() + " " + m.recipient() + " " + m.source()));
              }
            }
          }
        }
        TokenizedText prompt = tokenized(reader, doc, Schema.PROMPT_TEXT);
        if (!lines.isEmpty() && prompt != null) {
          for (SharedSpan span : verifier.verify(response, prompt, PassageRules.MIN_WORDS)) {
            lines.add(RunsFile.Side.OWN_PROMPT + " " + doc + " " + span.recipient() + " null");
          }
        }
        parts += lines.size();
        expected.put(doc, lines);
        fromFile.put(doc, new ArrayList<>());
      }
      Set<List<Integer>> takenPairs = new HashSet<>();
      taken.forEach(c -> takenPairs.add(List.of(c.recipientDoc(), c.sourceDoc())));
      for (RunsFile.Run run : RunsFile.at(runs).runs(reader.maxDoc())) {
        List<String> lines = fromFile.get(run.recipientDoc());
        if (lines != null && (run.side() == RunsFile.Side.OWN_PROMPT
            || takenPairs.contains(List.of(run.recipientDoc(), run.sourceDoc())))) {
          lines.add(run.side() + " " + run.sourceDoc() + " " + run.recipient() + " " + run.source());
        }
      }
    }
    // The own prompt's ranges count only where a source gave a run: the analysis reads them then.
    fromFile.replaceAll((doc, lines) -> lines.stream().allMatch(l -> l.startsWith(RunsFile.Side.OWN_PROMPT.name()))
        ? List.of() : lines);
    assertThat(parts).as("runs found on the index's texts").isPositive();
    assertThat(expected.keySet()).hasSizeGreaterThan(1);
    for (int doc : expected.keySet()) {
      assertThat(sorted(fromFile.get(doc))).as("the runs of recipient " + doc).isEqualTo(sorted(expected.get(doc)));
    }
  }

  @Test
  void theFindingsAreTheSameAsWithTheIndexsOwnVerificationAndFewerTextsAreRead() throws IOException {
    Report verifiedHere = analyse(index, PairsFile.at(pairs));

    assertThat(origin(withRuns)).containsEntry("from", "pairs file").containsEntry("runs", "runs file");
    assertThat(origin(verifiedHere)).doesNotContainKey("runs");
    assertThat(withRuns.findings()).isNotEmpty().isEqualTo(verifiedHere.findings());
    assertThat(join(withRuns).get("verified_pairs")).isPositive().isEqualTo(join(verifiedHere).get("verified_pairs"));
    assertThat(join(withRuns).get("rejected_pairs")).isEqualTo(join(verifiedHere).get("rejected_pairs"));
    assertThat(join(withRuns).get("source_texts_read")).as("source texts read on the driver")
        .isLessThan(join(verifiedHere).get("source_texts_read"));
  }

  /** A recipient's runs left out of the file take away exactly its overlap findings: they came from the file. */
  @Test
  void aRecipientsRunsLeftOutOfTheFileTakeAwayExactlyItsOverlapFindings(@TempDir Path dir) throws IOException {
    JobPairsTest.OverlapRecipient found = JobPairsTest.OverlapRecipient.among(index, taken, withRuns);
    List<RunsFile.Run> all;
    try (IndexSearch search = IndexSearch.open(index)) {
      all = RunsFile.at(runs).runs(search.reader().maxDoc());
    }
    Path without = dir.resolve(RunsFile.FILE_NAME);
    RunsFile.write(without, RunsFile.at(runs).header(),
        all.stream().filter(r -> r.recipientDoc() != found.doc()).iterator());

    Report fewer = analyse(index, PairsFile.at(pairs).withRuns(RunsFile.at(without)));

    assertThat(fewer.findings()).isEqualTo(found.findingsWithout(withRuns));
  }

  @Test
  void aFileOfAnotherMinimumIsRefusedInWords(@TempDir Path dir) throws IOException {
    RunsFile.Header job = RunsFile.at(runs).header();
    assertThat(job.minWords()).isEqualTo(2 * AnalysisOptions.DEFAULT_MIN_SPAN_TOKENS);
    Path other = dir.resolve(RunsFile.FILE_NAME);
    RunsFile.write(other, new RunsFile.Header(job.job(), job.index(), job.join(), RunsFile.minWords(20),
        job.ownPromptMinWords(), job.scheme()), List.<RunsFile.Run>of().iterator());

    assertThatThrownBy(() -> analyse(index, PairsFile.at(pairs).withRuns(RunsFile.at(other))))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining(RunsFile.FILE_NAME)
        .hasMessageContaining("runs of 40 words or more").hasMessageContaining("--min-span");
  }

  /** Runs of another index commit, or of another job than the pairs', are never used. */
  @Test
  void aFileOfAnotherCommitOrJobIsRefusedInWords(@TempDir Path dir) throws IOException {
    RunsFile.Header job = RunsFile.at(runs).header();
    Path stale = dir.resolve("stale").resolve(RunsFile.FILE_NAME);
    RunsFile.write(stale, new RunsFile.Header(job.job(), "0000/1", job.join(), job.minWords(), job.ownPromptMinWords(),
        job.scheme()), List.<RunsFile.Run>of().iterator());
    Path foreign = dir.resolve("foreign").resolve(RunsFile.FILE_NAME);
    RunsFile.write(foreign, new RunsFile.Header("local-0", job.index(), job.join(), job.minWords(),
        job.ownPromptMinWords(), job.scheme()), List.<RunsFile.Run>of().iterator());

    assertThatThrownBy(() -> analyse(index, PairsFile.at(pairs).withRuns(RunsFile.at(stale))))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("stale or foreign")
        .hasMessageContaining("Run kvscope scope again");
    assertThatThrownBy(() -> analyse(index, PairsFile.at(pairs).withRuns(RunsFile.at(foreign))))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("do not go together");
  }

  private static List<String> sorted(List<String> lines) {
    return lines.stream().sorted().toList();
  }

  private static TokenizedText tokenized(IndexReader reader, int doc, String field) throws IOException {
    String text = reader.storedFields().document(doc, Set.of(field)).get(field);
    return text == null ? null : WordTokenizer.tokenize(text);
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

  @SuppressWarnings("unchecked")
  private static Map<String, Long> join(Report report) {
    return (Map<String, Long>) report.parameters().get(CrossTenantOverlap.NAME + ".join");
  }
}

package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvscope.analysis.Analysis;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.analyzers.CandidatePairs;
import io.kvscope.analysis.analyzers.CrossTenantOverlap;
import io.kvscope.analysis.analyzers.PairsFile;
import io.kvscope.analysis.analyzers.RunsFile;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.index.IndexIngest;
import io.kvscope.index.doc.TextCopies;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.IngestProgress;
import io.kvscope.index.store.CaseKey;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.List;

/**
 * What "the same report" means between the job and {@code kvscope ingest} + {@code kvscope analyze}:
 * report.json of the standard analysis, the same findings (kind, request, confidence, sources and
 * their attribution), summary, windows, tenants, coverage and evidence. Only when it was made, from
 * which index, and the parameters the analysis records (its timings among them) may differ.
 */
final class SameReport {

  private SameReport() {}

  /** {@code kvscope ingest}'s index of {@code inputs} at {@code index}, read with {@code options}. */
  static Path singleMachineIndex(Path index, IngestOptions options, Path... inputs) throws IOException {
    try (IndexStore store = IndexStore.open(index)) {
      new IndexIngest(store, Ingestors.discover(), options, IngestProgress.NONE, Clock.systemUTC()).run(List.of(inputs));
    }
    return index;
  }

  /**
   * Holds the analysis of {@code actual} to that of {@code expected}, after giving {@code actual}
   * the case key of {@code expected} (redacted values are keyed by the case: the two indexes are one
   * case here). Returns the report both write, without what may differ between two runs.
   */
  static JsonNode assertSame(Path expected, Path actual, Path reports) throws IOException {
    JsonNode report = of(expected, reports.resolve("expected.json"));
    assertSame(report, expected, actual, reports);
    return report;
  }

  /**
   * As {@link #assertSame(Path, Path, Path)}, with the report of {@code expected} already made. The
   * job's index {@code actual} is analysed as {@code kvscope scope} analyses it: with the candidate
   * pairs and runs the job wrote beside it, which that analysis must say it took (unless the index
   * holds text copies, which only the index's own join covers).
   */
  static void assertSame(JsonNode expectedReport, Path expected, Path actual, Path reports) throws IOException {
    Files.copy(expected.resolve(CaseKey.FILE_NAME), actual.resolve(CaseKey.FILE_NAME), StandardCopyOption.REPLACE_EXISTING);
    Path file = reports.resolve("actual.json");
    CandidatePairs fromJob = PairsFile.at(actual.resolveSibling(PairsFile.FILE_NAME))
        .withRuns(RunsFile.at(actual.resolveSibling(RunsFile.FILE_NAME)));
    assertThat(of(actual, file, fromJob)).isEqualTo(expectedReport);
    // On four threads, whose lanes share the job's runs, the analysis says the same.
    assertThat(of(actual, reports.resolve("actual-on-4-threads.json"), fromJob, AnalysisOptions.defaults().withThreads(4)))
        .as("the analysis on four threads").isEqualTo(expectedReport);
    boolean copies;
    try (IndexSearch search = IndexSearch.open(actual)) {
      copies = !TextCopies.all(search.reader()).isEmpty();
    }
    // Text copies (records of one request that disagree on a text) are joined on the index only.
    assertThat(new ObjectMapper().readTree(file.toFile()).at("/parameters/" + CrossTenantOverlap.NAME
        + ".candidate_pairs/from").asText()).as("where the candidates came from").isEqualTo(copies ? "index join" : "pairs file");
    assertThat(new ObjectMapper().readTree(file.toFile()).at("/parameters/" + CrossTenantOverlap.NAME
        + ".candidate_pairs/runs").asText()).as("where their runs came from").isEqualTo(copies ? "" : "runs file");
  }

  /** report.json of the standard analysis on {@code index}, written to {@code file}, without what may differ between two runs. */
  static JsonNode of(Path index, Path file) throws IOException {
    return of(index, file, CandidatePairs.INDEX_JOIN);
  }

  /** As {@link #of(Path, Path)}, with the general join's candidates from {@code pairs}. */
  static JsonNode of(Path index, Path file, CandidatePairs pairs) throws IOException {
    return of(index, file, pairs, AnalysisOptions.defaults());
  }

  /** As {@link #of(Path, Path, CandidatePairs)}, analysed with {@code options}. */
  static JsonNode of(Path index, Path file, CandidatePairs pairs, AnalysisOptions options) throws IOException {
    Files.createDirectories(file.getParent());
    try (IndexSearch search = IndexSearch.open(index)) {
      ReportJson.write(Analysis.standard(pairs).run(search, options, Analysis.Progress.NONE), file);
    }
    ObjectNode report = (ObjectNode) new ObjectMapper().readTree(file.toFile());
    report.remove(List.of("generated_at", "index", "parameters"));
    return report;
  }
}

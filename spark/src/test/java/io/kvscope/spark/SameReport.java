package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvscope.analysis.Analysis;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.index.IndexIngest;
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

  /** As {@link #assertSame(Path, Path, Path)}, with the report of {@code expected} already made. */
  static void assertSame(JsonNode expectedReport, Path expected, Path actual, Path reports) throws IOException {
    Files.copy(expected.resolve(CaseKey.FILE_NAME), actual.resolve(CaseKey.FILE_NAME), StandardCopyOption.REPLACE_EXISTING);
    assertThat(of(actual, reports.resolve("actual.json"))).isEqualTo(expectedReport);
  }

  /** report.json of the standard analysis on {@code index}, written to {@code file}, without what may differ between two runs. */
  static JsonNode of(Path index, Path file) throws IOException {
    Files.createDirectories(file.getParent());
    try (IndexSearch search = IndexSearch.open(index)) {
      ReportJson.write(Analysis.standard().run(search, AnalysisOptions.defaults(), Analysis.Progress.NONE), file);
    }
    ObjectNode report = (ObjectNode) new ObjectMapper().readTree(file.toFile());
    report.remove(List.of("generated_at", "index", "parameters"));
    return report;
  }
}

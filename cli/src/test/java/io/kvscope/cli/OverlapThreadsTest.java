package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cross-tenant overlap on four threads says what it says on one: an incident of the development
 * corpus's real text, ingested once, analysed with {@code --threads 1} and {@code --threads 4}, gives
 * the same findings in the same order, the same bundles and the same report.json, apart from the
 * run's own time and the counts of what each thread's caches saved (which lookups a cache answers
 * depends on what that thread was handed before).
 */
class OverlapThreadsTest {

  /** Beside the repository, read at run time; the test is skipped without it, as the other corpus tests are. */
  static final Path CORPUS = Path.of("..", "..", "shared", "corpus", "dev-corpus.jsonl.zst");

  /** The overlap's counts of cache hits and of the lookups they saved: they differ by design between thread counts. */
  static final List<String> CACHE_COUNTS = List.of("holder_lookups", "holder_lookups_remembered",
      "stock_phrase_lookups", "source_texts_read", "source_texts_reused");

  @TempDir Path tmp;

  @Test
  void fourThreadsFindWhatOneFindsInTheSameOrder() throws Exception {
    Assumptions.assumeTrue(Files.isRegularFile(CORPUS), "no development corpus at " + CORPUS.toAbsolutePath().normalize()
        + ": put dev-corpus.jsonl.zst there to run the corpus tests");
    Path incident = tmp.resolve("incident");
    ok(CliTestSupport.run("generate", "--out", incident.toString(), "--seed", "1", "--scale", "0.25x",
        "--size-mix", "CHAT", "--corpus", CORPUS.toString()));
    Path index = tmp.resolve("index");
    ok(CliTestSupport.run("ingest", incident.toString(), "--index", index.toString(), "--quiet"));

    Map<String, String> one = reportFiles(analyze(index, 1));
    Map<String, String> four = reportFiles(analyze(index, 4));

    JsonNode join = new ObjectMapper().readTree(one.get("report.json")).path("parameters")
        .path("cross-tenant-overlap.join");
    assertThat(join.path("focused_recipients").asLong()).as("focused recipients, one handout each").isGreaterThan(4);
    assertThat(join.path("candidates").asLong()).as("the general join's candidates, handed out beside them")
        .isGreaterThan(500);
    assertThat(one.get("findings.ndjson").lines().filter(line -> line.contains("\"cross_tenant_overlap\"")).count())
        .as("cross-tenant findings").isGreaterThan(4);
    assertThat(four.keySet()).isEqualTo(one.keySet()).contains("report.json", "findings.ndjson", "findings.csv");
    assertThat(one.keySet()).anyMatch(name -> name.startsWith("bundles/"));
    one.forEach((name, text) -> assertThat(four.get(name)).as(name).isEqualTo(text));
  }

  private Path analyze(Path index, int threads) {
    Path out = tmp.resolve("reports-on-" + threads);
    ok(CliTestSupport.run("analyze", "--index", index.toString(), "--out", out.toString(), "--threads",
        Integer.toString(threads), "--quiet"));
    return out;
  }

  /**
   * report.json without the run's time, timings and cache counts; the findings and every bundle as
   * written, the time the report was made aside. The Markdown and HTML reports are left out: they
   * print the same parameters as text.
   */
  private static Map<String, String> reportFiles(Path reports) throws Exception {
    ObjectMapper json = new ObjectMapper();
    String madeAt = json.readTree(reports.resolve("report.json").toFile()).path("generated_at").asText();
    assertThat(madeAt).isNotEmpty();
    String madeAtSecond = Instant.parse(madeAt).truncatedTo(ChronoUnit.SECONDS).toString();
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(reports)) {
      for (Path file : walk.filter(Files::isRegularFile).sorted().toList()) {
        String name = reports.relativize(file).toString();
        if (name.endsWith(".arrow") || name.equals("report.md") || name.equals("report.html")) {
          continue;
        }
        String text = Files.readString(file);
        if (name.equals("report.json")) {
          ObjectNode report = (ObjectNode) json.readTree(text);
          ObjectNode parameters = (ObjectNode) report.path("parameters");
          parameters.remove(List.of("analyzer_seconds", "cross-tenant-overlap.cpu_seconds"));
          ((ObjectNode) parameters.path("cross-tenant-overlap.join")).remove(CACHE_COUNTS);
          text = json.writerWithDefaultPrettyPrinter().writeValueAsString(report);
        }
        files.put(name, text.replace(madeAt, "(made at)").replace(madeAtSecond, "(made at)"));
      }
    }
    return files;
  }

  private static void ok(CliTestSupport.Run run) {
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
  }
}

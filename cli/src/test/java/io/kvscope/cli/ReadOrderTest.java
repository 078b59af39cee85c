package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvscope.index.store.CaseKey;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report does not depend on the order the evidence was read in: the same incident ingested in
 * one run, and again in three runs that take its files in reverse order, gives byte-identical
 * report.json, findings and bundles (the run's own time, its index path and how long each step
 * took aside). Both indexes share one case key, so keyed hashes of the same text agree.
 */
class ReadOrderTest {

  @TempDir Path tmp;

  @Test
  void theSameFilesReadInAnotherOrderAndInSeveralRunsGiveTheSameReport() throws Exception {
    Path incident = tmp.resolve("incident");
    ok(CliTestSupport.run("generate", "--out", incident.toString(), "--seed", "2", "--scale", "0.25x"));
    Files.delete(incident.resolve("truth.json"));

    Path inOneRun = tmp.resolve("one-run");
    ok(CliTestSupport.run("ingest", incident.toString(), "--index", inOneRun.toString(), "--quiet"));

    Path reversed = tmp.resolve("reversed");
    Files.createDirectories(reversed);
    Files.copy(inOneRun.resolve(CaseKey.FILE_NAME), reversed.resolve(CaseKey.FILE_NAME));
    List<Path> files = filesOf(incident);
    Collections.reverse(files);
    int third = (files.size() + 2) / 3;
    for (int from = 0; from < files.size(); from += third) {
      List<String> args = new ArrayList<>(List.of("ingest"));
      files.subList(from, Math.min(files.size(), from + third)).forEach(f -> args.add(f.toString()));
      args.addAll(List.of("--index", reversed.toString(), "--quiet"));
      ok(CliTestSupport.run(args.toArray(String[]::new)));
    }

    Map<String, String> expected = reportFiles(analyze(inOneRun));
    Map<String, String> actual = reportFiles(analyze(reversed));

    assertThat(actual.keySet()).isEqualTo(expected.keySet()).contains("report.json", "findings.ndjson", "findings.csv");
    assertThat(expected.keySet()).anyMatch(name -> name.startsWith("bundles/"));
    expected.forEach((name, text) -> assertThat(firstDifference(text, actual.get(name))).as(name).isNull());
  }

  /** The first line where two texts differ, both versions, or null when they are equal. */
  private static String firstDifference(String expected, String actual) {
    String[] a = expected.split("\n", -1);
    String[] b = actual.split("\n", -1);
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      String left = i < a.length ? a[i] : "(end)";
      String right = i < b.length ? b[i] : "(end)";
      if (!left.equals(right)) {
        return "line " + (i + 1) + ":\n  one run:  " + left + "\n  reversed: " + right;
      }
    }
    return null;
  }

  private Path analyze(Path index) {
    Path out = tmp.resolve("reports-of-" + index.getFileName());
    ok(CliTestSupport.run("analyze", "--index", index.toString(), "--out", out.toString(), "--quiet"));
    return out;
  }

  /**
   * Every text file of a report folder, with what differs by run alone made equal: the time the
   * report was made (also printed in the bundles), the index's path, and the seconds each step took.
   */
  private static Map<String, String> reportFiles(Path reports) throws Exception {
    ObjectMapper json = new ObjectMapper();
    JsonNode report = json.readTree(reports.resolve("report.json").toFile());
    String madeAt = report.path("generated_at").asText();
    String indexPath = report.path("index").asText();
    assertThat(madeAt).isNotEmpty();
    Map<String, String> files = new TreeMap<>();
    for (Path file : filesOf(reports)) {
      String name = reports.relativize(file).toString();
      if (name.endsWith(".arrow")) {
        continue; // the same rows as findings.ndjson, in a binary layout
      }
      String text = Files.readString(file);
      if (name.equals("report.json")) {
        ObjectNode tree = (ObjectNode) json.readTree(text);
        ObjectNode parameters = (ObjectNode) tree.path("parameters");
        List<String> timings = new ArrayList<>();
        parameters.fieldNames().forEachRemaining(key -> {
          if (key.equals("analyzer_seconds") || key.endsWith("cpu_seconds")) {
            timings.add(key);
          }
        });
        parameters.remove(timings);
        text = json.writerWithDefaultPrettyPrinter().writeValueAsString(tree);
      } else {
        text = text.lines().filter(line -> !line.contains("analyzer_seconds") && !line.contains("cpu_seconds"))
            .collect(java.util.stream.Collectors.joining("\n"));
      }
      String madeAtSecond = java.time.Instant.parse(madeAt).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
      files.put(name, text.replace(madeAt, "(made at)").replace(madeAtSecond, "(made at)").replace(indexPath, "(index)"));
    }
    return files;
  }

  private static List<Path> filesOf(Path folder) throws Exception {
    try (Stream<Path> walk = Files.walk(folder)) {
      return new ArrayList<>(walk.filter(Files::isRegularFile).sorted().toList());
    }
  }

  private static void ok(CliTestSupport.Run run) {
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
  }
}

package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scheduled audit as it runs for real: logs arrive in two parts (the first half of every log
 * file, then the second half, shipped late), and an incremental audit runs after each ingest. The
 * second part re-estimates the nodes' clocks from more requests, which moves every window's start
 * on the gateway's clock by milliseconds; the audit must still know the windows it reported.
 */
class IncrementalAuditTest {

  private static final Pattern FAILING_ID = Pattern.compile("(?m)^  \\S+Z (\\S+)$");

  @Test
  void windowsReportedOnceDoNotFailAgainWhenMoreLogsArrive(@TempDir Path tmp) throws IOException {
    Path incident = tmp.resolve("incident");
    assertThat(CliTestSupport.run("generate", "--out", incident.toString(), "--scale", "0.05x", "--seed", "4").exitCode())
        .isZero();
    Path first = tmp.resolve("first");
    Path second = tmp.resolve("second");
    splitInHalves(incident, first, second);
    Path index = tmp.resolve("index");

    ingest(first, index);
    CliTestSupport.Run before = CliTestSupport.run("audit", "--index", index.toString(), "--incremental");
    ingest(second, index);
    CliTestSupport.Run after = CliTestSupport.run("audit", "--index", index.toString(), "--incremental");

    assertThat(before.exitCode()).as(before.out() + before.err()).isEqualTo(ExitCodes.FINDINGS);
    Set<String> reported = failingIds(before.out());
    assertThat(reported).as("the first audit reports the vulnerable windows").anyMatch(id -> id.startsWith("window:"));
    assertThat(failingIds(after.out())).as(after.out()).doesNotContainAnyElementsOf(reported);
    assertThat(after.exitCode()).as(after.out() + after.err()).isEqualTo(ExitCodes.OK);
    assertThat(after.out()).contains("reported by an earlier audit").contains("audit: clean")
        .containsPattern("\\d+ warnings listed by earlier audits, not repeated")
        // Config findings are named by the epoch's start as its log says it, not in epoch milliseconds.
        .doesNotContainPattern("config_\\w+:\\S+:\\d{13}\\b");

    // For a scheduler: the same verdict as one JSON object on stdout, or the last line alone.
    CliTestSupport.Run asJson = CliTestSupport.run("audit", "--index", index.toString(), "--incremental", "--json");
    assertThat(asJson.exitCode()).as(asJson.err()).isEqualTo(ExitCodes.OK);
    JsonNode verdict = new ObjectMapper().readTree(asJson.out());
    assertThat(verdict.get("audit").asText()).isEqualTo("clean");
    assertThat(verdict.get("failing")).isEmpty();
    assertThat(verdict.get("warnings")).isNotEmpty().allMatch(w -> w.get("listed_before").asBoolean());
    CliTestSupport.Run quiet = CliTestSupport.run("audit", "--index", index.toString(), "--incremental", "-q");
    assertThat(quiet.out()).isEqualTo("audit: clean" + System.lineSeparator());
  }

  private static void ingest(Path logs, Path index) {
    CliTestSupport.Run run = CliTestSupport.run("ingest", logs.toString(), "--index", index.toString(), "-q");
    assertThat(run.exitCode()).as(run.err()).isZero();
  }

  private static Set<String> failingIds(String auditOut) {
    String failing = auditOut.contains("Failing:") ? auditOut.substring(auditOut.indexOf("Failing:")) : "";
    int end = failing.indexOf("arnings:");
    failing = end < 0 ? failing : failing.substring(0, end);
    Matcher m = FAILING_ID.matcher(failing);
    Set<String> ids = new java.util.TreeSet<>();
    while (m.find()) {
      ids.add(m.group(1));
    }
    return ids;
  }

  /**
   * Every plain log file's first half of lines into {@code first}, its second half into
   * {@code second} under another name (a later file of the same stream); compressed files and
   * whole documents (deployment records) go whole into the first part.
   */
  private static void splitInHalves(Path incident, Path first, Path second) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(incident)) {
      files = walk.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("truth.json")).toList();
    }
    for (Path file : files) {
      Path rel = incident.relativize(file);
      Path to = first.resolve(rel.toString());
      Files.createDirectories(to.getParent());
      String name = file.getFileName().toString();
      if (name.endsWith(".gz") || rel.startsWith("deployment")) {
        Files.copy(file, to);
        continue;
      }
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      int half = lines.size() / 2;
      if (half == 0) {
        Files.copy(file, to);
        continue;
      }
      Files.write(to, lines.subList(0, half), StandardCharsets.UTF_8);
      int dot = name.lastIndexOf('.');
      Path later = second.resolve(rel.toString()).resolveSibling(name.substring(0, dot) + ".part2" + name.substring(dot));
      Files.createDirectories(later.getParent());
      Files.write(later, lines.subList(half, lines.size()), StandardCharsets.UTF_8);
    }
  }
}

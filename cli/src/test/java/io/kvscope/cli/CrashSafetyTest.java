package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.report.ReportJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILLs real kvscope processes at random points and checks what is left: the index opens,
 * Lucene's CheckIndex finds it clean, and after a re-run it holds exactly the documents of an
 * uninterrupted run; a killed analyze leaves the previous reports whole and no partial file under
 * a report's name, and the next run leaves no temporary file behind. The seed of the kill points
 * is in every assertion message, to replay a failure.
 */
class CrashSafetyTest {

  static final int INGEST_KILLS = 4;
  static final int ANALYZE_KILLS = 4;

  @TempDir Path tmp;

  private final long seed = System.nanoTime();
  private final Random random = new Random(seed);

  @Test
  void ingestKilledAtRandomPointsEndsWithExactlyTheRecordsOfAnUninterruptedRun() throws Exception {
    Path in = writeFleet(tmp.resolve("in"), 6_000);
    Path clean = tmp.resolve("clean");
    long started = System.nanoTime();
    CliTestSupport.Run cleanRun = CliTestSupport.run("ingest", in.toString(), "--index", clean.toString(), "--quiet");
    assertThat(cleanRun.exitCode()).isZero();
    long cleanMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    Map<String, String> expected = IndexContents.documents(clean);

    Path killed = tmp.resolve("killed");
    int kills = 0;
    for (int k = 0; k < INGEST_KILLS; k++) {
      long delay = 300 + (long) (random.nextDouble() * Math.max(500, cleanMillis));
      Process child = ChildKvScope.start(tmp, "ingest-" + k, List.of(), "512m",
          "ingest", in.toString(), "--index", killed.toString(), "--quiet");
      if (!child.waitFor(delay, TimeUnit.MILLISECONDS)) {
        child.destroyForcibly().waitFor(30, TimeUnit.SECONDS); // SIGKILL: no shutdown hooks, no finally
        kills++;
      }
      if (io.kvscope.index.store.IndexStore.exists(killed)) {
        assertThat(IndexContents.checkIndexClean(killed)).as("seed %d, kill %d after %d ms", seed, k, delay).isTrue();
        IndexContents.count(killed, io.kvscope.index.doc.Schema.TYPE_REQUEST); // opens and searches
      }
    }
    CliTestSupport.Run finish = CliTestSupport.run("ingest", in.toString(), "--index", killed.toString(), "--quiet");

    assertThat(kills).as("seed %d: the kills hit a running ingest", seed).isPositive();
    assertThat(finish.exitCode()).isZero();
    assertThat(IndexContents.checkIndexClean(killed)).isTrue();
    Map<String, String> actual = IndexContents.documents(killed);
    assertThat(actual.size()).as("seed %d", seed).isEqualTo(expected.size());
    assertThat(actual).as("seed %d", seed).isEqualTo(expected);
    assertThat(finish.out()).as("a resumed run counts no request twice").contains("records merged into requests already read: 0 ");
  }

  @Test
  void analyzeKilledAtRandomPointsLeavesThePreviousReportWholeAndNoPartialFiles() throws Exception {
    Path in = writeFleet(tmp.resolve("in"), 3_000);
    Path index = tmp.resolve("index");
    Path out = tmp.resolve("reports");
    assertThat(CliTestSupport.run("ingest", in.toString(), "--index", index.toString(), "--quiet").exitCode()).isZero();
    // The previous report: a narrower analysis, so that old and new files differ.
    assertThat(CliTestSupport.run("analyze", "--index", index.toString(), "--out", out.toString(), "--quiet",
        "--until", "2026-08-28T10:20:00Z").exitCode()).isZero();
    Map<Path, byte[]> previous = snapshot(out);
    assertThat(previous.keySet()).hasSizeGreaterThanOrEqualTo(5);

    long started = System.nanoTime();
    ChildKvScope.Result timing = ChildKvScope.run(tmp, "analyze-timing", List.of(), "512m", 3,
        "analyze", "--index", index.toString(), "--out", tmp.resolve("timing").toString(), "--quiet");
    long childMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    assertThat(timing.exitCode()).as(timing.err()).isZero();

    int kills = 0;
    for (int k = 0; k < ANALYZE_KILLS; k++) {
      long delay = (long) (random.nextDouble() * childMillis);
      Process child = ChildKvScope.start(tmp, "analyze-" + k, List.of(), "512m",
          "analyze", "--index", index.toString(), "--out", out.toString(), "--quiet");
      if (!child.waitFor(delay, TimeUnit.MILLISECONDS)) {
        child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        kills++;
      }
      for (Map.Entry<Path, byte[]> file : snapshot(out).entrySet()) {
        byte[] old = previous.get(file.getKey());
        boolean unchanged = old != null && java.util.Arrays.equals(old, file.getValue());
        assertThat(unchanged || complete(out.resolve(file.getKey()), file.getValue()))
            .as("seed %d, kill %d after %d ms: %s is neither the previous file nor a complete new one",
                seed, k, delay, file.getKey())
            .isTrue();
      }
      if (!child.isAlive() && child.exitValue() == 0) {
        previous = snapshot(out); // it finished: its report is now the previous one
      }
    }
    CliTestSupport.Run finish = CliTestSupport.run("analyze", "--index", index.toString(), "--out", out.toString(), "--quiet");

    assertThat(kills).as("seed %d: the kills hit a running analyze", seed).isPositive();
    assertThat(finish.exitCode()).isZero();
    try (Stream<Path> all = Files.walk(out)) {
      assertThat(all.filter(p -> p.getFileName().toString().startsWith(".")).toList())
          .as("no temporary or staging files remain after a run").isEmpty();
    }
    ReportJson.read(out.resolve("report.json"));
  }

  /** Every file under {@code dir} except hidden (temporary) ones, relative path -> bytes. */
  private static Map<Path, byte[]> snapshot(Path dir) throws Exception {
    Map<Path, byte[]> files = new HashMap<>();
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) all::iterator) {
        if (Files.isRegularFile(p) && !dir.relativize(p).toString().contains("/.") && !p.getFileName().toString().startsWith(".")) {
          files.put(dir.relativize(p), Files.readAllBytes(p));
        }
      }
    }
    return files;
  }

  /** A whole file of its kind, checked by its own structure (a cut file fails). */
  private static boolean complete(Path file, byte[] bytes) {
    String name = file.getFileName().toString();
    String text = new String(bytes, StandardCharsets.UTF_8);
    try {
      return switch (name) {
        case "report.json" -> {
          ReportJson.read(file);
          yield true;
        }
        case "notification.json" -> {
          new com.fasterxml.jackson.databind.ObjectMapper().readTree(bytes);
          yield text.stripTrailing().endsWith("}");
        }
        case "report.html" -> text.stripTrailing().endsWith("</html>");
        case "findings.arrow" -> bytes.length > 12
            && new String(bytes, bytes.length - 6, 6, StandardCharsets.US_ASCII).equals("ARROW1");
        case "findings.ndjson" -> {
          // Empty when there is no finding; otherwise whole lines, each one JSON object.
          var json = new com.fasterxml.jackson.databind.ObjectMapper();
          for (String line : text.lines().toList()) {
            json.readTree(line);
          }
          yield text.isEmpty() || text.endsWith("\n");
        }
        default -> bytes.length > 0 && text.endsWith("\n");
      };
    } catch (Exception unreadable) {
      return false;
    }
  }

  /**
   * A fleet in every text format: LiteLLM plain and gzipped, OTLP traces, prefill and decode logs
   * that cover the gateway's rids, with a prefill stub every 97th request.
   */
  static Path writeFleet(Path in, int requests) throws Exception {
    StringBuilder plain = new StringBuilder();
    StringBuilder zipped = new StringBuilder();
    StringBuilder traces = new StringBuilder();
    long base = FleetFiles.BASE;
    StringBuilder prefill = new StringBuilder(FleetFiles.sglangStartup(base - 3_600_000, "prefill", 681_280, 1_048_576));
    StringBuilder decode = new StringBuilder(FleetFiles.sglangStartup(base - 3_600_000, "decode", 681_280, 1_048_576));
    for (int i = 0; i < requests; i++) {
      String line = FleetFiles.litellm(i, "org-" + i % 11, 1_000 + i % 500,
          "question " + i + " about account " + (10_000_000 + i) + " and the " + (i % 7) + " ledgers") + "\n";
      (i % 3 == 0 ? zipped : plain).append(line);
      if (i % 10 == 0) {
        traces.append(FleetFiles.otlp(requests + i, "org-trace-" + i % 4, 2_000 + i)).append('\n');
      }
      long at = base + i * 1000L;
      prefill.append(FleetFiles.sglangTimeStats(at + 40_000, i, "prefill", i % 97 == 0 ? 1 : 1_000 + i % 500));
      decode.append(FleetFiles.sglangTimeStats(at - 30_000, i, "decode", 1_000 + i % 500));
    }
    FleetFiles.write(in.resolve("gateway/litellm.jsonl"), plain.toString(), false);
    FleetFiles.write(in.resolve("gateway/litellm-rotated.jsonl.gz"), zipped.toString(), true);
    FleetFiles.write(in.resolve("traces/spans.json"), traces.toString(), false);
    FleetFiles.write(in.resolve("engine/sglang-prefill-0.log"), prefill.toString(), false);
    FleetFiles.write(in.resolve("engine/sglang-decode-0.log.gz"), decode.toString(), true);
    return in;
  }
}

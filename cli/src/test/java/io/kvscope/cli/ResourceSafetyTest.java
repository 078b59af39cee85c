package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvscope.index.doc.Schema;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pathological but legal input in child JVMs with a small fixed heap: if memory grew with the
 * input they would fail with OutOfMemoryError. Sizes are scaled down for CI and can be set to the
 * full incident shapes by hand:
 * {@code -Dkvscope.stress.tinyRequests=1000000 -Dkvscope.stress.promptMb=5 -Dkvscope.stress.promptRepeats=10000}.
 * A full disk is a real one: a tiny tmpfs mounted in a private mount namespace ({@code unshare}),
 * skipped with the reason where the machine does not allow that.
 */
class ResourceSafetyTest {

  static final int TINY_REQUESTS = Integer.getInteger("kvscope.stress.tinyRequests", 25_000);
  static final int PROMPT_MB = Integer.getInteger("kvscope.stress.promptMb", 1);
  static final int PROMPT_REPEATS = Integer.getInteger("kvscope.stress.promptRepeats", 16);
  static final String HEAP = System.getProperty("kvscope.stress.heap", "256m");

  @TempDir Path tmp;

  @Test
  void oneTenantWithVeryManyTinyRequestsRunsInAFixedHeap() throws Exception {
    Path file = tmp.resolve("in/gateway.jsonl.gz");
    Files.createDirectories(file.getParent());
    try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(
        new GZIPOutputStream(Files.newOutputStream(file), 1 << 16), StandardCharsets.UTF_8), 1 << 16)) {
      for (int i = 0; i < TINY_REQUESTS; i++) {
        out.write(FleetFiles.litellm(i, "org-busy", 3, "hi " + (i % 100)));
        out.write('\n');
      }
    }
    Path index = tmp.resolve("index");

    ChildKvScope.Result ingest = ChildKvScope.run(tmp, "ingest", List.of(), HEAP, 30,
        "ingest", file.getParent().toString(), "--index", index.toString(), "--quiet");
    ChildKvScope.Result analyze = ChildKvScope.run(tmp, "analyze", List.of(), HEAP, 30,
        "analyze", "--index", index.toString(), "--out", tmp.resolve("reports").toString(), "--quiet");

    System.out.printf("stress: %,d tiny requests of one tenant, heap %s: ingest %,d ms (peak RSS %,d MB), analyze %,d ms (peak RSS %,d MB)%n",
        TINY_REQUESTS, HEAP, ingest.millis(), ingest.peakRssKb() / 1024, analyze.millis(), analyze.peakRssKb() / 1024);
    assertThat(ingest.exitCode()).as(ingest.err()).isZero();
    assertGatewayOnlyAnalysisCompleted(analyze);
    assertThat(IndexContents.count(index, Schema.TYPE_REQUEST)).isEqualTo(TINY_REQUESTS);
    assertThat(Files.size(tmp.resolve("reports/report.json"))).isPositive();
  }

  @Test
  void oneLargePromptRepeatedManyTimesRunsInAFixedHeap() throws Exception {
    StringBuilder prompt = new StringBuilder(PROMPT_MB << 20);
    java.util.Random random = new java.util.Random(5);
    while (prompt.length() < PROMPT_MB << 20) {
      prompt.append("clause ").append(random.nextInt(1_000_000)).append(" of the master agreement applies. ");
    }
    String text = prompt.toString();
    Path file = tmp.resolve("in/gateway.jsonl.gz");
    Files.createDirectories(file.getParent());
    try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(
        new GZIPOutputStream(Files.newOutputStream(file), 1 << 16), StandardCharsets.UTF_8), 1 << 16)) {
      for (int i = 0; i < PROMPT_REPEATS; i++) {
        out.write(FleetFiles.litellm(i, "org-" + i % 10, text.length() / 4, text));
        out.write('\n');
      }
    }
    Path index = tmp.resolve("index");

    ChildKvScope.Result ingest = ChildKvScope.run(tmp, "ingest", List.of(), HEAP, 120,
        "ingest", file.getParent().toString(), "--index", index.toString(), "--quiet");
    ChildKvScope.Result analyze = ChildKvScope.run(tmp, "analyze", List.of(), HEAP, 120,
        "analyze", "--index", index.toString(), "--out", tmp.resolve("reports").toString(), "--quiet");

    System.out.printf("stress: a %d MB prompt x %,d requests (%,d MB of prompt text), heap %s: ingest %,d ms (peak RSS %,d MB), "
        + "analyze %,d ms (peak RSS %,d MB)%n", PROMPT_MB, PROMPT_REPEATS, (long) PROMPT_MB * PROMPT_REPEATS, HEAP,
        ingest.millis(), ingest.peakRssKb() / 1024, analyze.millis(), analyze.peakRssKb() / 1024);
    assertThat(ingest.exitCode()).as(ingest.err()).isZero();
    assertGatewayOnlyAnalysisCompleted(analyze);
    assertThat(IndexContents.count(index, Schema.TYPE_REQUEST)).isEqualTo(PROMPT_REPEATS);
    // The same prompt from ten tenants is shared text, not ten leaks.
    assertThat(Files.readString(tmp.resolve("reports/report.json"))).contains("\"leaked_responses\" : 0");
  }

  /** Gateway logs alone analyse to the end; the exit says the engine logs are missing (never "clean"). */
  private static void assertGatewayOnlyAnalysisCompleted(ChildKvScope.Result analyze) {
    assertThat(analyze.exitCode()).as(analyze.err()).isEqualTo(ExitCodes.ERROR);
    assertThat(analyze.err()).contains("incomplete evidence: the index holds no engine logs");
  }

  @Test
  void aFullDiskIsAClearErrorAndNothingIsLostOnceThereIsRoomAgain() throws Exception {
    assumeTrue(ChildKvScope.works("unshare", "--mount", "--propagation", "private", "sh", "-c",
            "mount -t tmpfs -o size=1m tmpfs /mnt && umount /mnt"),
        "needs root and unshare to mount a small tmpfs in a private mount namespace; a full disk cannot be made here");
    Path in = CrashSafetyTest.writeFleet(tmp.resolve("in"), 3_000);
    Path disk = Files.createDirectories(tmp.resolve("disk"));
    Path kvscope = tmp.resolve("kvscope.sh");
    Files.writeString(kvscope, "exec " + String.join(" ", ChildKvScope.command(List.of(), HEAP).stream()
        .map(ResourceSafetyTest::quote).toList()) + " \"$@\"\n");
    Path results = Files.createDirectories(tmp.resolve("results"));
    // One namespace, one script: the tmpfs exists only while it runs.
    String script = String.join("\n",
        "set -u",
        "D=" + quote(disk.toString()) + "; R=" + quote(results.toString()) + "; K=\"sh " + kvscope + "\"",
        "mount -t tmpfs -o size=2m tmpfs \"$D\"",
        "$K ingest " + quote(in.toString()) + " --index \"$D/index\" --quiet >\"$R/full.out\" 2>\"$R/full.err\"; echo $? >\"$R/full.exit\"",
        "mount -o remount,size=400m \"$D\"",
        "$K ingest " + quote(in.toString()) + " --index \"$D/index\" --quiet >\"$R/roomy.out\" 2>\"$R/roomy.err\"; echo $? >\"$R/roomy.exit\"",
        "$K search --index \"$D/index\" 'doc_type:request' --limit 0 >\"$R/count.out\" 2>&1",
        "$K analyze --index \"$D/index\" --out \"$D/reports\" --quiet >/dev/null 2>&1; echo $? >\"$R/first-analyze.exit\"",
        "(cd \"$D/reports\" && find . -type f | sort | xargs sha256sum) >\"$R/before.sha\"",
        "dd if=/dev/zero of=\"$D/filler\" bs=64k >/dev/null 2>&1",
        "$K analyze --index \"$D/index\" --out \"$D/reports\" --quiet >\"$R/analyze-full.out\" 2>\"$R/analyze-full.err\"; echo $? >\"$R/analyze-full.exit\"",
        "(cd \"$D/reports\" && find . -type f | sort | xargs sha256sum) >\"$R/after.sha\"",
        "ls -A \"$D/reports\" >\"$R/after.ls\"",
        "umount \"$D\"");
    Files.writeString(tmp.resolve("disk-full.sh"), script);

    Process p = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "sh", tmp.resolve("disk-full.sh").toString())
        .redirectErrorStream(true).redirectOutput(tmp.resolve("script.log").toFile()).start();
    assertThat(p.waitFor(8, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
    String log = Files.readString(tmp.resolve("script.log"));

    String fullErr = Files.readString(results.resolve("full.err"));
    assertThat(read(results, "full.exit")).as(log).isEqualTo("2");
    assertThat(fullErr).contains("kvscope: cannot write to the index at " + disk.resolve("index"))
        .contains("No space left on device").contains("free some space").doesNotContain("\tat ");
    assertThat(read(results, "roomy.exit")).as(Files.readString(results.resolve("roomy.err"))).isEqualTo("0");
    assertThat(Files.readString(results.resolve("count.out"))).contains("3,300 matches");
    assertThat(read(results, "first-analyze.exit")).isEqualTo("0");
    assertThat(read(results, "analyze-full.exit")).isEqualTo("2");
    assertThat(Files.readString(results.resolve("analyze-full.err")))
        .contains("kvscope: cannot write the reports to " + disk.resolve("reports"))
        .contains("reports already there are unchanged").doesNotContain("\tat ");
    assertThat(Files.readString(results.resolve("after.sha"))).isEqualTo(Files.readString(results.resolve("before.sha")))
        .contains("report.json");
    assertThat(Files.readAllLines(results.resolve("after.ls"))).noneMatch(name -> name.startsWith("."));
  }

  private static String read(Path dir, String name) throws Exception {
    return Files.readString(dir.resolve(name)).strip();
  }

  private static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }
}

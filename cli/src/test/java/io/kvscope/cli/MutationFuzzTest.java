package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fuzzing by mutation: valid LiteLLM and OTLP lines, some of them damaged by random edits (cuts,
 * byte flips, NULs, invalid UTF-8, changed types, spliced fragments) or given an attacker's values
 * (hostile strings, extreme numbers, keys given twice), ingested through the real command line.
 * Every run must end cleanly, keep every untouched record, account for every line as a record or a
 * reported bad line, and print no raw control character; every tenth run is analyzed too, which
 * must end cleanly whatever the values. Seeds are fixed so a failure replays exactly; the seed is
 * in the test name.
 */
class MutationFuzzTest {

  static final int RUNS = 150;
  static final int LINES_PER_RUN = 50;

  /** Totals over all runs, for the report. */
  static final java.util.concurrent.atomic.AtomicLong LINES_TRIED = new java.util.concurrent.atomic.AtomicLong();
  static final java.util.concurrent.atomic.AtomicLong LINES_MUTATED = new java.util.concurrent.atomic.AtomicLong();

  @TempDir Path tmp;

  @org.junit.jupiter.api.AfterAll
  static void tellTheTotals() {
    System.out.printf("fuzz: %,d lines in %d runs, %,d of them mutated%n", LINES_TRIED.get(), RUNS, LINES_MUTATED.get());
  }

  static List<Long> seeds() {
    List<Long> seeds = new ArrayList<>();
    for (long s = 1; s <= RUNS; s++) {
      seeds.add(0x6B7673636F7065L * s);
    }
    return seeds;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void mutatedRecordsNeverCostTheGoodOnesOrEscapeAsExceptions(long seed) throws Exception {
    Random random = new Random(seed);
    boolean otlp = random.nextInt(3) == 0;
    boolean gzip = random.nextInt(4) == 0;
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    Set<String> untouched = new LinkedHashSet<>();
    int base = (int) (Math.abs(seed) % 1_000_000) * 100;
    for (int n = 0; n < LINES_PER_RUN; n++) {
      int i = base + n;
      String line = otlp ? FleetFiles.otlp(i, "org-" + n % 5, 100 + n)
          : FleetFiles.litellm(i, "org-" + n % 5, 100 + n, "fuzzed prompt " + i);
      // The first lines stay intact so that detection has something to go on.
      if (n >= 3 && random.nextInt(4) == 0) {
        content.write(Mutations.mutate(line.getBytes(StandardCharsets.UTF_8), random));
        LINES_MUTATED.incrementAndGet();
      } else {
        content.write(line.getBytes(StandardCharsets.UTF_8));
        untouched.add("rid-" + i);
      }
      content.write('\n');
    }
    LINES_TRIED.addAndGet(LINES_PER_RUN);
    byte[] bytes = content.toByteArray();
    Path file = tmp.resolve(otlp ? "traces.json" : "gateway.jsonl");
    if (gzip) {
      file = tmp.resolve(file.getFileName() + ".gz");
    }
    Files.write(file, gzip ? gzipBytes(bytes) : bytes);

    CliTestSupport.Run run = CliTestSupport.run("ingest", file.toString(), "--index", tmp.resolve("index").toString(), "--quiet");

    assertThat(run.exitCode()).as(run.err()).isZero();
    BadInputSuiteTest.assertNoEscapedException(run);
    assertThat(HostileIncident.rawControls(run.out() + run.err())).as("raw control characters printed").isEmpty();
    assertThat(IndexContents.engineRids(tmp.resolve("index"))).as(run.out()).containsAll(untouched);
    long nonBlank = Mutations.nonBlankLines(bytes);
    long accounted = BadInputSuiteTest.problemLines(run.out()).isEmpty()
        ? recordsRead(run.out()) : BadInputSuiteTest.recordsPlusBad(run, file);
    if (!otlp) {
      assertThat(accounted).as("records + bad lines\n%s", run.out()).isEqualTo(nonBlank);
    } else {
      // An OTLP line may legitimately hold no span once damaged (an emptied batch); never more than one.
      assertThat(accounted).as("records + bad lines\n%s", run.out()).isBetween(nonBlank - LINES_PER_RUN / 4, nonBlank);
    }
    if (seed / 0x6B7673636F7065L % 10 == 0) {
      CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", tmp.resolve("index").toString(), "--out",
          tmp.resolve("reports").toString(), "--quiet");
      // Exit 2 here only says the index holds no engine logs (gateway lines alone); the reports are written.
      assertThat(analyze.exitCode()).as(analyze.err()).isIn(ExitCodes.OK, ExitCodes.ERROR);
      assertThat(analyze.err()).doesNotContain("\tat ").doesNotContain("Exception");
      assertThat(tmp.resolve("reports/report.json")).as(analyze.err()).isRegularFile();
      assertThat(HostileIncident.rawControls(analyze.out() + analyze.err())).isEmpty();
    }
  }

  private static long recordsRead(String out) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^  (litellm|otlp)\\s+([0-9,]+) records").matcher(out);
    return m.find() ? Long.parseLong(m.group(2).replace(",", "")) : 0;
  }

  private static byte[] gzipBytes(byte[] bytes) throws java.io.IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (var gz = new java.util.zip.GZIPOutputStream(out)) {
      gz.write(bytes);
    }
    return out.toByteArray();
  }
}

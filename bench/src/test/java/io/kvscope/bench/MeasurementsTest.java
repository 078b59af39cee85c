package io.kvscope.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's parsers on what the real tools write. */
class MeasurementsTest {

  @TempDir Path tmp;

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  @Test
  void sizesMapToTheMultipliersTheyWereFittedOn() {
    assertThat(InputSize.multiplierFor(287)).isCloseTo(1.0, within(0.001));
    assertThat(InputSize.multiplierFor(714)).isCloseTo(4.0, within(0.05));
    assertThat(InputSize.multiplierFor(143.5)).isCloseTo(0.5, within(0.001));
    assertThat(InputSize.parse("4G").scale()).isEqualTo("37.918x");
    assertThat(InputSize.parse("3x").scale()).isEqualTo("3x");
  }

  @Test
  void readsTheHeapOfEveryCollectionFromARealGcLog() throws Exception {
    Path log = tmp.resolve("gc.log");
    // A child JVM that allocates about 400 MB in 1 MB arrays under a 64 MB heap: many collections.
    Process p = new ProcessBuilder(java(), "-Xmx64m", "-Xlog:gc*:file=" + log, "-cp", System.getProperty("java.class.path"),
        Allocate.class.getName()).inheritIO().start();
    assertThat(p.waitFor()).isZero();

    GcLog gc = GcLog.read(log);

    assertThat(gc.collections()).isGreaterThan(3);
    assertThat(gc.peakUsedMb()).isGreaterThan(gc.peakLiveMb()).isLessThanOrEqualTo(64);
    assertThat(gc.peakCommittedMb()).isLessThanOrEqualTo(64);
    assertThat(gc.pauseSeconds()).isPositive();
  }

  @Test
  void samplesTheLiveHeapOfAJvmStartedThroughALauncher() throws Exception {
    // A shell that starts the JVM, as the kvscope launcher does; the JVM keeps 48 MB reachable
    // while it allocates garbage in a 256 MB heap for five seconds.
    List<String> command = List.of("/bin/sh", "-c", "exec \"$0\" -Xmx256m -cp \"$1\" \"$2\"",
        java(), System.getProperty("java.class.path"), Hold.class.getName());

    Processes.SampledRun run = Processes.runSampled(command, java.util.Map.of(), tmp.resolve("out"), tmp.resolve("err"),
        java.time.Duration.ofSeconds(1));

    assertThat(run.exit()).as(() -> readQuietly(tmp.resolve("err"))).isZero();
    assertThat(run.liveHeapSamples()).isPositive();
    assertThat(run.liveHeapPeakMb()).isBetween(48L, 96L); // the held arrays, plus the JVM's own
  }

  @Test
  void readsWallCpuAndPeakRssFromGnuTime() throws Exception {
    assumeThat(Path.of("/usr/bin/time")).as("GNU time installed").isExecutable();
    Path report = tmp.resolve("time.txt");
    Process p = new ProcessBuilder(List.of("/usr/bin/time", "-v", "-o", report.toString(), java(), "-Xmx64m", "-cp",
        System.getProperty("java.class.path"), Allocate.class.getName())).inheritIO().start();
    assertThat(p.waitFor()).isZero();

    TimeReport time = TimeReport.read(report);

    assertThat(time.exitStatus()).isZero();
    assertThat(time.wallSeconds()).isPositive();
    assertThat(time.cpuSeconds()).isPositive();
    assertThat(time.maxRssKb()).isGreaterThan(10_000); // a JVM
    assertThat(TimeReport.clock("1:02:03")).isEqualTo(3723);
    assertThat(TimeReport.clock("1:39.12")).isCloseTo(99.12, within(1e-9));
  }

  @Test
  void jacksonBaselineCountsRecordsAndBytesOfTheFiles() throws Exception {
    Path file = tmp.resolve("a.jsonl");
    Files.writeString(file, "{\"id\":\"1\",\"messages\":[{\"content\":\"hello\"}]}\n{\"id\":\"2\",\"n\":3}\n");

    JacksonBaseline.Pass pass = JacksonBaseline.pass(new com.fasterxml.jackson.core.JsonFactory(), List.of(file), true);

    assertThat(pass.records()).isEqualTo(2);
    assertThat(pass.bytes()).isEqualTo(Files.size(file));
    assertThat(pass.chars()).isEqualTo("id1messagescontenthelloid2n".length());
    assertThat(pass.tokens()).isEqualTo(11 + 6); // {, id, "1", messages, [, {, content, "hello", }, ], } and {, id, "2", n, 3, }
  }

  private static String readQuietly(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      return e.toString();
    }
  }

  /** Holds 48 MB reachable for five seconds while allocating garbage. */
  public static final class Hold {
    public static void main(String[] args) throws InterruptedException {
      byte[][] held = new byte[48][];
      for (int i = 0; i < held.length; i++) {
        held[i] = new byte[1 << 20];
      }
      long end = System.nanoTime() + 5_000_000_000L;
      long sum = 0;
      while (System.nanoTime() < end) {
        byte[] garbage = new byte[1 << 20];
        sum += garbage[(int) (sum & 1023)];
        Thread.sleep(1);
      }
      System.out.println(sum + held.length);
    }
  }

  /** Allocates garbage so that the collector runs. */
  public static final class Allocate {
    public static void main(String[] args) {
      long sum = 0;
      for (int i = 0; i < 400; i++) {
        byte[] chunk = new byte[1 << 20];
        chunk[i % chunk.length] = (byte) i;
        sum += chunk[i % chunk.length];
      }
      System.out.println(sum == 42 ? "" : "done");
    }
  }
}

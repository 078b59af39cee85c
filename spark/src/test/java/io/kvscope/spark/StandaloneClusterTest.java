package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.kvscope.ingest.Printable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job submitted to a real Spark standalone cluster on 127.0.0.1 (a master and two workers of
 * one core each, every one a JVM of its own) writes, stage by stage, exactly what the same job
 * writes in {@code local[2]} on the same incident ({@link LocalRun}, whose outputs
 * {@link ScopeJobTest} holds to the single-machine path): every row of every output folder, and
 * the analysis of the index the driver builds of the cluster's shards writes the local run's
 * report ({@link SameReport}). Then
 * the same with one worker and its executor killed with SIGKILL once the ingest stage's first output
 * is written, while its cached rows and shuffle files are still to be read: the job finishes on the
 * other worker and its outputs and report are the same again.
 *
 * <p>The driver runs {@code spark-submit}'s own entry point in a JVM of its own (client mode), as a
 * responder would submit the job; this test JVM keeps its local session for the comparison. The
 * cluster's logs are printed when a test fails.
 *
 * <p>The application is kvscope's class folders, each packed into a jar. With
 * {@code -Dkvscope.spark.submitJar=spark/target/kvscope-spark-VERSION-spark-submit.jar} (built by
 * {@code -Pspark-submit package}) it is that one jar instead, and the cluster's installation lacks
 * what only kvscope needs (Lucene, Jackson's YAML and CSV formats, Arrow's unsafe allocator), so
 * the jar must bring them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StandaloneClusterTest {

  /** Generous: the machines that run the suite are small and shared. */
  private static final Duration JOB_LIMIT = Duration.ofMinutes(15);
  private static final Pattern JOIN_LINE = Pattern.compile("pairs (\\d+); fingerprints joined \\d+ \\(salted (\\d+)\\)");
  /** Jars of the test's class path that kvscope needs and a Spark installation lacks. */
  private static final Pattern KVSCOPE_ONLY = Pattern.compile(
      "lucene-.*|jackson-dataformat-(yaml|csv)-.*|arrow-memory-unsafe-.*");

  private Path dir;
  private LocalRun local;
  private StandaloneCluster cluster;
  private List<Path> application;
  /** The local job's rows per output folder, read once for both runs. */
  private final Map<String, List<String>> localRows = new HashMap<>();
  /** The report of the local job's index, made once for both runs. */
  private com.fasterxml.jackson.databind.JsonNode localReport;

  @BeforeAll
  void startACluster(@TempDir Path dir) throws Exception {
    this.dir = dir;
    local = LocalRun.shared();
    String submitJar = System.getProperty("kvscope.spark.submitJar", "");
    if (submitJar.isBlank()) {
      cluster = new StandaloneCluster(dir.resolve("cluster"), 2, jvmFlags(), jar -> true);
      application = StandaloneCluster.applicationJars(ScopeJob.class, dir.resolve("application"));
    } else {
      assertThat(Path.of(submitJar)).as("the spark-submit jar").isRegularFile();
      cluster = new StandaloneCluster(dir.resolve("cluster"), 2, jvmFlags(), jar -> !KVSCOPE_ONLY.matcher(jar).matches());
      application = List.of(Path.of(submitJar).toAbsolutePath());
    }
  }

  @AfterAll
  void stopTheCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  @Order(1)
  void theJobOnTwoWorkersWritesWhatTheLocalJobWrites() throws Exception {
    printingLogsOnFailure(() -> {
      endsAsTheLocalRun(submit("two-workers"));

      for (int worker = 1; worker <= 2; worker++) {
        assertThat(tasksRun(worker)).as("tasks run by worker %d's executor", worker).isPositive();
      }
    });
  }

  @Test
  @Order(2)
  void aWorkerKilledMidJobLeavesTheOutputsAsTheLocalJobsOnes() throws Exception {
    printingLogsOnFailure(() -> {
      Run run = submit("killed-worker");
      // The ingest stage writes its outputs from rows cached on both executors: once the first is
      // written, the rest are still to be read from the killed executor's cache and shuffle files.
      Path firstOutput = Path.of(run.out(), IngestOutput.RECORDS.folder(), "_SUCCESS");
      StandaloneCluster.awaitCondition(JOB_LIMIT, () -> Files.exists(firstOutput) || !run.driver().isAlive());
      assertThat(run.driver().isAlive()).as("the job still runs when the first ingest output is written").isTrue();
      int tasksBeforeKill = tasksRun(2);
      StandaloneCluster.kill(cluster.worker(2).toHandle());
      endsAsTheLocalRun(run);

      assertThat(tasksBeforeKill).as("tasks worker 2 ran before it was killed").isPositive();
      assertThat(cluster.worker(2).isAlive()).isFalse();
      assertThat(StandaloneCluster.read(cluster.driverLog(run.name()))).as("the driver's log").contains("Lost executor");
    });
  }

  /** A submitted job: its driver, and the folder it writes. */
  private record Run(String name, String out, Process driver) {}

  private Run submit(String name) throws IOException {
    String out = dir.resolve("out-" + name).toString();
    return new Run(name, out, cluster.submit(name, application, ScopeJob.class.getName(),
        List.of(local.incident().toString(), "--out", out, "--salt-work", String.valueOf(LocalRun.SALT_WORK))));
  }

  /** The job ends normally, with the local run's outputs, summary and report. */
  private void endsAsTheLocalRun(Run run) throws InterruptedException, IOException {
    if (!run.driver().waitFor(JOB_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
      StandaloneCluster.kill(run.driver().toHandle()); // its executors would hold the workers' cores
      fail("the job did not end within " + JOB_LIMIT);
    }
    assertThat(run.driver().exitValue()).as("the driver's exit status; its log: " + cluster.driverLog(run.name()))
        .isZero();
    assertSameOutputs(run.out());
    assertJoinAsLocal(run.name());
    assertReportAsLocal(run);
  }

  /** The analysis of the index the driver built of the cluster's shards writes the local job's report. */
  private void assertReportAsLocal(Run run) throws IOException {
    Path reports = dir.resolve("reports-" + run.name());
    if (localReport == null) {
      localReport = SameReport.of(local.summary().index(), dir.resolve("reports-local").resolve("report.json"));
    }
    SameReport.assertSame(localReport, local.summary().index(), ShardIndex.folderOf(run.out()), reports);
    assertThat(localReport.get("findings")).as("an incident with findings").hasSizeGreaterThan(10);
  }

  /** Every output folder holds the local job's rows, each as often. */
  private void assertSameOutputs(String out) throws IOException {
    List<String> folders = folders(local.out());
    assertThat(folders(out)).isEqualTo(folders).isNotEmpty();
    for (String folder : folders) {
      List<String> expected = localRows.computeIfAbsent(folder, f -> rows(local.out(), f));
      List<String> actual = rows(out, folder);
      if (!actual.equals(expected)) {
        fail(folder + "/ differs from the local job's: " + rows(expected, actual) + " missing, " + rows(actual, expected)
            + " not in the local output (of " + expected.size() + " and " + actual.size() + " rows)");
      }
    }
  }

  /** The driver's summary names as many pairs as the local run, and as many salted fingerprints (some). */
  private void assertJoinAsLocal(String name) throws IOException {
    Matcher join = JOIN_LINE.matcher(Files.readString(cluster.driverLog(name)));
    assertThat(join.find()).as("the driver's summary").isTrue();
    assertThat(Long.parseLong(join.group(1))).isEqualTo(local.summary().join().pairs());
    assertThat(Long.parseLong(join.group(2))).isEqualTo(local.summary().join().salted()).isPositive();
  }

  private int tasksRun(int worker) throws IOException {
    int tasks = 0;
    for (Path log : cluster.executorLogs(worker)) {
      tasks += StandaloneCluster.read(log).split("Executor: Running task ", -1).length - 1;
    }
    return tasks;
  }

  private static List<String> folders(String out) throws IOException {
    try (Stream<Path> list = Files.list(Path.of(out))) {
      // The Parquet outputs; the Lucene shards and the index are not rows.
      return list.filter(p -> Files.exists(p.resolve("_SUCCESS"))).map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** A folder's rows as text, sorted: nested structs and arrays print their values. */
  private static List<String> rows(String out, String folder) {
    return SharedSpark.session().read().parquet(out + "/" + folder).collectAsList().stream().map(Row::toString)
        .sorted().toList();
  }

  /** Up to 5 rows of {@code these} that {@code those} lacks, counting repeats. */
  private static List<String> rows(List<String> these, List<String> those) {
    Map<String, Integer> left = new HashMap<>();
    those.forEach(row -> left.merge(row, 1, Integer::sum));
    List<String> lacking = new ArrayList<>();
    for (String row : these) {
      if (left.merge(row, -1, Integer::sum) < 0 && lacking.size() < 5) {
        lacking.add(Printable.text(row.length() > 200 ? row.substring(0, 200) + "..." : row));
      }
    }
    return lacking;
  }

  /** The flags the test JVM has (surefire's {@code argLine}), for every JVM of the cluster. */
  private static List<String> jvmFlags() {
    String flags = System.getProperty("kvscope.spark.jvmFlags");
    if (flags == null || flags.isBlank()) {
      throw new IllegalStateException("kvscope.spark.jvmFlags is not set: run this test through Maven (spark/pom.xml sets it)");
    }
    return List.of(flags.trim().split("\\s+"));
  }

  private interface Body {
    void run() throws Exception;
  }

  private void printingLogsOnFailure(Body body) throws Exception {
    try {
      body.run();
    } catch (Exception | AssertionError e) {
      System.err.println("The cluster's logs, under " + dir + ":\n" + cluster.logs());
      throw e;
    }
  }
}

package io.kvscope.cli;

import io.kvscope.analysis.analyzers.PairsFile;
import io.kvscope.analysis.analyzers.RunsFile;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.ingest.Printable;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "scope",
    mixinStandardHelpOptions = true,
    description = "Run kvscope's Apache Spark job on INPUT... (paths or Hadoop URLs) into --out: its stages as Parquet,"
        + " Lucene shards and one index of them (DIR/index, which search and gui open), then the analysis of analyze"
        + " on that index: the exposure summary, and the reports in DIR/report (owner-only). The job comes from the"
        + " spark module's build, which the ./kvscope launcher of a source checkout makes (Spark included), or from a"
        + " release's spark/ folder, which runs it on an Apache Spark 4.2 installed here (--spark-home or SPARK_HOME).")
final class ScopeCommand implements Callable<Integer> {

  /**
   * The folder of the job's build ({@link JobLaunch#in}); when unset, a release's {@code spark/}
   * folder beside kvscope.jar.
   */
  static final String SPARK_HOME = "KVSCOPE_SPARK_HOME";
  /**
   * JVM options for the job's JVM, which in local mode holds the driver and every executor (e.g.
   * {@code -Xmx12g}); {@code KVSCOPE_JAVA_OPTS} stays this JVM's, where the analysis runs.
   */
  static final String JAVA_OPTS = "KVSCOPE_SPARK_JAVA_OPTS";
  /** With --quiet, the job's log is printed only when it fails: this many of its last lines. */
  private static final int QUIET_LOG_LINES = 200;

  @Parameters(arity = "1..*", paramLabel = "INPUT", description = "Log files or folders: local paths or Hadoop URLs"
      + " (file:, hdfs:, s3a:) that every executor can read.")
  List<String> inputs;

  @Option(names = {"-o", "--out"}, paramLabel = "DIR", required = true,
      description = "The job's output folder on this machine (created owner-only): stages, shards, index/, report/.")
  Path out;

  @Option(names = "--master", paramLabel = "URL", defaultValue = "local[*]",
      description = "Spark master (default: ${DEFAULT-VALUE}: every core of this machine, nothing to install).")
  String master;

  @Option(names = "--spark-home", paramLabel = "DIR", description = "The Apache Spark 4.2 installation (its jars/)"
      + " the job runs on when kvscope is a release, which does not carry Spark (default: $SPARK_HOME). A source"
      + " checkout's build brings its own Spark and ignores it.")
  Path sparkHome;

  @Option(names = {"-q", "--quiet"}, description = "No progress on stderr; the job's log only if it fails.")
  boolean quiet;

  @Mixin
  AnalysisOptionsMixin analysis;

  /** Passed to the job, which ingests; see {@link #ingestArguments}. */
  @Mixin
  IngestOptionsMixin ingestOptions = new IngestOptionsMixin();

  @Mixin
  NoticeOptions notice = new NoticeOptions();

  @Mixin
  TraceUrlOption trace = new TraceUrlOption();

  @Option(names = "--reveal", description = "Include prompt/response text in reports (sensitive).")
  boolean reveal;

  @Override
  public Integer call() throws Exception {
    JobLaunch launch = launch(System.getenv(SPARK_HOME));
    java.util.ArrayDeque<String> lastLines = new java.util.ArrayDeque<>();
    List<String> options = new ArrayList<>(jitOptions(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()));
    options.addAll(javaOptions(System.getenv(JAVA_OPTS)));
    JobAotCache aot = JobAotCache.of(launch, java(), options, Runtime.version().feature(), System.getenv());
    options.addAll(aot.options());
    int status = runJob(launch.command(java(), options, jobArguments()),
        launch.environment(), line -> {
      if (!quiet) {
        System.err.println(line);
      } else if (lastLines.size() == QUIET_LOG_LINES) {
        lastLines.removeFirst();
      }
      lastLines.addLast(line);
    });
    aot.finished(status == 0);
    if (status != 0) {
      if (quiet) {
        lastLines.forEach(System.err::println);
      }
      System.err.println("kvscope: the Spark job failed (exit " + status + "); the end of its log is above");
      return ExitCodes.ERROR;
    }
    // The cluster's self-join gave the candidate pairs; the analysis takes them instead of joining again.
    AnalysisOptions analysed = analysis.toOptions();
    return AnalyzeCommand.analyzeAndReport(out.resolve("index"), analysed, clusterPairs(out, analysed),
        new ReportDestination(out.resolve("report"), reveal, notice.toDetails(), trace.links()), quiet);
  }

  /** The job's candidate pairs in {@code out}, with the runs it verified for them where {@link #runsFor} gives them. */
  static PairsFile clusterPairs(Path out, AnalysisOptions options) throws IOException {
    PairsFile pairs = PairsFile.at(out.resolve(PairsFile.FILE_NAME));
    return runsFor(out, options).map(pairs::withRuns).orElse(pairs);
  }

  /**
   * The runs the job in {@code out} verified, where it wrote them at the minimum of {@code
   * options}' {@code --min-span}. The job verifies at the default; with another, the analysis
   * verifies on the index, as {@code kvscope analyze} does.
   */
  static Optional<RunsFile> runsFor(Path out, AnalysisOptions options) throws IOException {
    Path file = out.resolve(RunsFile.FILE_NAME);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    RunsFile runs = RunsFile.at(file);
    return runs.header().minWords() == RunsFile.minWords(options.minSpanTokens()) ? Optional.of(runs) : Optional.empty();
  }

  /** The job's JVM as {@link #call} starts it, from the build in {@code buildHome}. */
  List<String> jobCommand(String buildHome) throws IOException {
    return launch(buildHome).command(java(), List.of(), jobArguments());
  }

  /**
   * The JIT's options the launcher gives this JVM (cli/src/dist/bin/jdk.sh): C2's inlining bounds,
   * and on JDK 25+ how seldom C1's counting code (tier 2) asks for C2.
   */
  private static final List<String> LAUNCHER_JIT_OPTIONS = List.of("-XX:InlineSmallCode=", "-XX:FreqInlineSize=",
      "-XX:MaxInlineSize=", "-XX:Tier2InvokeNotifyFreqLog=", "-XX:Tier2BackedgeNotifyFreqLog=");

  /**
   * Of this JVM's own options, the JIT's that the job's JVM gets too, before {@value #JAVA_OPTS}'s
   * (so a value given there wins). The launcher gives this JVM C2's inlining bounds and tier 2's
   * count checks (cli/src/dist/bin/jdk.sh, or the user's in {@code KVSCOPE_JAVA_OPTS}): C2's work is
   * the largest part of the job's JVM outside its tasks, the job runs the same indexing chain the
   * bounds were measured on (bench/README.md, "Spark: the job's JVM and the shards' writer"), and its
   * own AOT cache sends its methods to C2 the way the launcher's does ("The C2 queue on two cores").
   */
  static List<String> jitOptions(List<String> ownOptions) {
    return ownOptions.stream().filter(option -> LAUNCHER_JIT_OPTIONS.stream().anyMatch(option::startsWith)).toList();
  }

  /** {@value #JAVA_OPTS}'s options, split at white space as a shell would split them unquoted. */
  static List<String> javaOptions(String value) {
    return value == null || value.isBlank() ? List.of() : List.of(value.strip().split("\\s+"));
  }

  /**
   * How the job starts, from the build in {@code buildHome} ({@value #SPARK_HOME}), else from a
   * release's {@code spark/} folder beside kvscope.jar. The job's own options are checked first: a
   * refused option is told before a missing build.
   */
  JobLaunch launch(String buildHome) throws IOException {
    ingestArguments();
    Path home = buildHome == null || buildHome.isBlank() ? releaseSparkFolder() : Path.of(buildHome);
    if (home == null) {
      throw new IllegalArgumentException("kvscope scope runs the spark module's build, and " + SPARK_HOME
          + " does not name one. Run it through the ./kvscope launcher of a source checkout, which builds the module"
          + " and sets it, or from a release built with -Pspark-submit, whose spark/ folder holds the job; on a"
          + " cluster, submit io.kvscope.spark.ScopeJob with spark-submit (docs/spark.md)");
    }
    String installed = sparkHome != null ? sparkHome.toString() : System.getenv("SPARK_HOME");
    return JobLaunch.in(home, installed == null || installed.isBlank() ? null : Path.of(installed), master);
  }

  /** The job's arguments: the inputs, the output folder, the master and the ingest options. */
  private List<String> jobArguments() {
    List<String> arguments = new ArrayList<>(inputs);
    arguments.addAll(List.of("--out", out.toAbsolutePath().toString(), "--master", master));
    arguments.addAll(ingestArguments());
    return arguments;
  }

  /** A release's {@code spark/} folder, beside the kvscope.jar this runs from; null when there is none. */
  private static Path releaseSparkFolder() {
    try {
      Path code = Path.of(ScopeCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path folder = code.resolveSibling("spark");
      return Files.isRegularFile(code) && Files.isDirectory(folder) ? folder : null;
    } catch (java.net.URISyntaxException | RuntimeException unknown) {
      return null;
    }
  }

  private static Path java() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /**
   * The ingest options as the job's arguments. {@code --node-alias} values are checked here as
   * {@code ingest} checks them (a malformed or colliding one is a usage error, exit 2, before the job
   * starts) and passed on as ALIAS=NODE.
   */
  List<String> ingestArguments() {
    IngestOptionsMixin given = ingestOptions;
    List<String> arguments = new ArrayList<>();
    given.toOptions(this).nodeAliases()
        .forEach((alias, node) -> arguments.addAll(List.of("--node-alias", alias + "=" + node)));
    if (given.tenantKeys != null) {
      given.tenantKeys.forEach(key -> arguments.addAll(List.of("--tenant-key", key)));
    }
    if (given.node != null) {
      arguments.addAll(List.of("--node", given.node));
    }
    if (given.mapping != null) {
      // Absolute: the job's JVM and every executor read it by this path.
      arguments.addAll(List.of("--mapping", given.mapping.toAbsolutePath().toString()));
    }
    return arguments;
  }

  /**
   * Runs the job with {@code environment} added to this JVM's, each line of its output (stage times, Spark's log) given to {@code log} without
   * control characters; returns its exit status.
   */
  static int runJob(List<String> command, java.util.Map<String, String> environment, java.util.function.Consumer<String> log)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(environment);
    Process job = builder.start();
    Thread stop = new Thread(job::destroy); // an interrupted scope leaves no job running
    Runtime.getRuntime().addShutdownHook(stop);
    try {
      job.getOutputStream().close();
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(job.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          log.accept(Printable.text(line));
        }
      }
      return job.waitFor();
    } finally {
      job.destroy();
      Runtime.getRuntime().removeShutdownHook(stop);
    }
  }
}

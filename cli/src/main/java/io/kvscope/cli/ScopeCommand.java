package io.kvscope.cli;

import io.kvscope.analysis.analyzers.PairsFile;
import io.kvscope.ingest.Printable;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "scope",
    mixinStandardHelpOptions = true,
    description = "Run kvscope's Apache Spark job on INPUT... (paths or Hadoop URLs) into --out: its stages as Parquet,"
        + " Lucene shards and one index of them (DIR/index, which search and gui open), then the analysis of analyze"
        + " on that index: the exposure summary, and the reports in DIR/report (owner-only). Needs the spark module's"
        + " build, which the ./kvscope launcher of a source checkout makes and names (KVSCOPE_SPARK_HOME).")
final class ScopeCommand implements Callable<Integer> {

  /** The folder of the spark module's build: its jar, {@code classpath.txt} and {@code jvm.args}. */
  static final String SPARK_HOME = "KVSCOPE_SPARK_HOME";
  private static final String JOB = "io.kvscope.spark.ScopeJob";
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
    List<String> command = jobCommand(System.getenv(SPARK_HOME));
    java.util.ArrayDeque<String> lastLines = new java.util.ArrayDeque<>();
    int status = runJob(command, line -> {
      if (!quiet) {
        System.err.println(line);
      } else if (lastLines.size() == QUIET_LOG_LINES) {
        lastLines.removeFirst();
      }
      lastLines.addLast(line);
    });
    if (status != 0) {
      if (quiet) {
        lastLines.forEach(System.err::println);
      }
      System.err.println("kvscope: the Spark job failed (exit " + status + "); the end of its log is above");
      return ExitCodes.ERROR;
    }
    // The cluster's self-join gave the candidate pairs; the analysis takes them instead of joining again.
    return AnalyzeCommand.analyzeAndReport(out.resolve("index"), analysis.toOptions(),
        PairsFile.at(out.resolve(PairsFile.FILE_NAME)), new ReportDestination(out.resolve("report"), reveal, notice.toDetails(), trace.links()), quiet);
  }

  /**
   * The job's JVM: this JVM's java, Spark's module flags, and the spark module's class path. The job
   * runs in a JVM of its own because Spark brings its own Jackson (2.21), which the rest of kvscope
   * (2.23) cannot share a class path with.
   */
  List<String> jobCommand(String sparkHome) throws IOException {
    List<String> ingestArguments = ingestArguments(); // a refused option is told before a missing build
    if (sparkHome == null || sparkHome.isBlank()) {
      throw new IllegalArgumentException("kvscope scope runs the spark module's build, and " + SPARK_HOME
          + " does not name one. Run it through the ./kvscope launcher of a source checkout, which builds the module"
          + " and sets it; on a cluster, submit io.kvscope.spark.ScopeJob with spark-submit (docs/spark.md)");
    }
    Path home = Path.of(sparkHome);
    Path classPath = home.resolve("classpath.txt");
    Path flags = home.resolve("jvm.args");
    Path jar;
    try (Stream<Path> files = Files.list(home)) {
      jar = files.filter(p -> p.getFileName().toString().matches("kvscope-spark-[^-]+\\.jar")).findFirst().orElse(null);
    } catch (IOException missing) {
      jar = null;
    }
    if (jar == null || !Files.isRegularFile(classPath) || !Files.isRegularFile(flags)) {
      throw new IllegalArgumentException(Printable.text(home) + " holds no build of the spark module (its jar, "
          + "classpath.txt and jvm.args); build it with ./mvnw -pl spark -am package -DskipTests");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("@" + flags);
    command.add("-cp");
    command.add(jar + java.io.File.pathSeparator + Files.readString(classPath).strip());
    command.add(JOB);
    command.addAll(inputs);
    command.addAll(List.of("--out", out.toAbsolutePath().toString(), "--master", master));
    command.addAll(ingestArguments);
    return command;
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
   * Runs the job, each line of its output (stage times, Spark's log) given to {@code log} without
   * control characters; returns its exit status.
   */
  static int runJob(List<String> command, java.util.function.Consumer<String> log) throws IOException, InterruptedException {
    Process job = new ProcessBuilder(command).redirectErrorStream(true).start();
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

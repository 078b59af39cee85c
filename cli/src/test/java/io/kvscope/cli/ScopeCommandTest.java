package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.analyzers.RunsFile;
import io.kvscope.model.evidence.PassageRules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvscope scope}'s own part: finding the spark module's build and running the job's JVM. The
 * job and the report it leads to are held to {@code ingest} + {@code analyze} in the spark module
 * ({@code ScopeJobTest}), which this module cannot depend on (Spark's Jackson).
 */
class ScopeCommandTest {

  /** The analysis takes the job's runs where they were found at its own minimum, and verifies on the index otherwise. */
  @Test
  void theRunsFileIsTakenWhereTheJobVerifiedAtTheAnalysisMinimum(@TempDir Path dir) throws Exception {
    AnalysisOptions defaults = AnalysisOptions.defaults();
    AnalysisOptions longer = new AnalysisOptions(null, null, null, 20, null, defaults.underrunRatio(),
        defaults.timingFactor(), defaults.minUncachedForTiming(), defaults.threads());
    assertThat(ScopeCommand.runsFor(dir, defaults)).as("no runs file").isEmpty();

    RunsFile.write(dir.resolve(RunsFile.FILE_NAME), new RunsFile.Header("local-1", "commit/1", "join",
        RunsFile.minWords(defaults.minSpanTokens()), PassageRules.MIN_WORDS, "scheme"), List.<RunsFile.Run>of().iterator());

    assertThat(ScopeCommand.runsFor(dir, defaults)).as("found at the default --min-span").isPresent();
    assertThat(ScopeCommand.runsFor(dir, longer)).as("with --min-span 20").isEmpty();
  }

  @Test
  void withoutTheSparkBuildItSaysHowToRunIt(@TempDir Path dir) {
    assumeTrue(System.getenv(ScopeCommand.SPARK_HOME) == null, "the test JVM names no spark build");
    CliTestSupport.Run run = CliTestSupport.run("scope", dir.resolve("logs").toString(), "--out", dir.resolve("out").toString());

    assertThat(run.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(run.err()).contains(ScopeCommand.SPARK_HOME).contains("./kvscope");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void aFolderWithoutTheBuildIsRefusedByName(@TempDir Path dir) {
    ScopeCommand scope = command(dir);
    assertThatThrownBy(() -> scope.jobCommand(dir.toString())).hasMessageContaining("holds no build of the spark module");
  }

  @Test
  void theJobRunsOnTheBuildsClassPathWithItsFlags(@TempDir Path dir) throws Exception {
    Files.createFile(dir.resolve("kvscope-spark-0.2.0.jar"));
    Files.writeString(dir.resolve("classpath.txt"), "/lib/a.jar:/lib/b.jar\n");
    Files.writeString(dir.resolve("jvm.args"), "--add-opens=java.base/java.nio=ALL-UNNAMED\n");

    List<String> command = command(dir).jobCommand(dir.toString());

    assertThat(command.getFirst()).endsWith("java");
    assertThat(command).contains("@" + dir.resolve("jvm.args"), "io.kvscope.spark.ScopeJob", "in", "--master", "local[2]");
    assertThat(command.get(command.indexOf("-cp") + 1))
        .isEqualTo(dir.resolve("kvscope-spark-0.2.0.jar") + java.io.File.pathSeparator + "/lib/a.jar:/lib/b.jar");
    assertThat(command.get(command.indexOf("--out") + 1)).isEqualTo(dir.resolve("out").toAbsolutePath().toString());
  }

  @Test
  void theIngestOptionsReachTheJobsCommandLine(@TempDir Path dir) throws Exception {
    Path home = sparkBuild(dir);
    Path mapping = Files.writeString(dir.resolve("mapping.json"), "{}");
    ScopeCommand scope = parsed(dir, "--tenant-key", "metadata.org,user", "--tenant-key", "team", "--node", "gpu-7",
        "--mapping", mapping.toString());

    List<String> command = scope.jobCommand(home.toString());

    List<String> afterJob = command.subList(command.indexOf("io.kvscope.spark.ScopeJob") + 1, command.size());
    assertThat(afterJob).containsSubsequence("--tenant-key", "metadata.org", "--tenant-key", "user", "--tenant-key", "team");
    assertThat(afterJob.get(afterJob.indexOf("--node") + 1)).isEqualTo("gpu-7");
    assertThat(afterJob.get(afterJob.indexOf("--mapping") + 1)).isEqualTo(mapping.toAbsolutePath().toString());
  }

  @Test
  void withoutIngestOptionsTheJobGetsNone(@TempDir Path dir) throws Exception {
    List<String> command = parsed(dir).jobCommand(sparkBuild(dir).toString());

    assertThat(command).doesNotContain("--tenant-key", "--node", "--mapping", "--node-alias");
  }

  @Test
  void nodeAliasesReachTheJobAsIngestReadsThem(@TempDir Path dir) throws Exception {
    ScopeCommand scope = parsed(dir, "--node-alias", " 10.0.0.1:30000 = prefill-a0", "--node-alias", "pod-7=decode-b1");

    List<String> command = scope.jobCommand(sparkBuild(dir).toString());

    List<String> afterJob = command.subList(command.indexOf("io.kvscope.spark.ScopeJob") + 1, command.size());
    assertThat(afterJob).containsSubsequence("--node-alias", "10.0.0.1:30000=prefill-a0")
        .containsSubsequence("--node-alias", "pod-7=decode-b1");
  }

  /** As for ingest (issue 37): one alias named as two nodes is refused before anything runs. */
  @Test
  void anAliasGivenAsTwoNodesIsAUsageErrorBeforeTheJobStarts(@TempDir Path dir) {
    CliTestSupport.Run run = CliTestSupport.run("scope", dir.resolve("logs").toString(), "--out",
        dir.resolve("out").toString(), "--node-alias", "pod-7=prefill-a0", "--node-alias", "pod-7=decode-b1");

    assertThat(run.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(run.err()).contains("--node-alias names pod-7 as two nodes").doesNotContain(ScopeCommand.SPARK_HOME);
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void noticeAndTraceLinkOptionsAreTakenForTheAnalysis(@TempDir Path dir) {
    ScopeCommand scope = parsed(dir, "--operator", "Acme AI", "--incident-ref", "INC-7", "--contact", "sec@acme.test",
        "--remediation", "cache salted per tenant", "--trace-url", "https://traces.acme.test/t/{trace_id}");

    assertThat(scope.notice.toDetails())
        .isEqualTo(new io.kvscope.analysis.report.NoticeDetails("Acme AI", "INC-7", "sec@acme.test", "cache salted per tenant"));
    assertThat(scope.trace.links()).isEqualTo(io.kvscope.analysis.report.TraceLinks.of("https://traces.acme.test/t/{trace_id}"));
  }

  @Test
  void theJobsJvmGetsTheLaunchersJitOptionsAndNothingElseOfThisJvms() {
    List<String> own = List.of("--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx1g", "-XX:InlineSmallCode=1000",
        "-XX:FreqInlineSize=200", "-XX:MaxInlineSize=20", "-XX:Tier2InvokeNotifyFreqLog=13", "-XX:C1MaxInlineSize=35",
        "-XX:Tier2BackedgeNotifyFreqLog=16", "-XX:Tier3InvokeNotifyFreqLog=10", "-XX:AOTCache=/c/analyze.aot",
        "-Dfile.encoding=UTF-8");

    assertThat(ScopeCommand.jitOptions(own)).containsExactly("-XX:InlineSmallCode=1000", "-XX:FreqInlineSize=200",
        "-XX:MaxInlineSize=20", "-XX:Tier2InvokeNotifyFreqLog=13", "-XX:Tier2BackedgeNotifyFreqLog=16");
    assertThat(ScopeCommand.jitOptions(List.of("-Xmx1g"))).isEmpty();
  }

  @Test
  void aReleaseRunsItsSparkSubmitJarOnTheInstalledSpark(@TempDir Path dir) throws Exception {
    Path release = releaseSparkFolder(dir);
    Path spark = installedSpark(dir);
    ScopeCommand scope = parsed(dir, "--master", "local[2]", "--spark-home", spark.toString(), "--node", "gpu-7");

    JobLaunch launch = scope.launch(release.toString());
    List<String> command = launch.command(Path.of("/jdk/bin/java"), ScopeCommand.javaOptions(" -Xmx12g  -XX:+UseG1GC "),
        List.of("in", "--out", "o"));

    assertThat(command).containsSubsequence("/jdk/bin/java", "@" + release.resolve("jvm.args"), "-Xmx12g", "-XX:+UseG1GC", "-cp",
        spark.resolve("jars") + "/*", "org.apache.spark.deploy.SparkSubmit", "--master", "local[2]",
        "--class", "io.kvscope.spark.ScopeJob", release.resolve("kvscope-spark-0.2.0-spark-submit.jar").toString(),
        "in", "--out", "o");
    assertThat(launch.environment()).containsEntry("SPARK_HOME", spark.toAbsolutePath().toString());
    assertThat(scope.jobCommand(release.toString())).containsSubsequence("--node", "gpu-7");
  }

  @Test
  void aReleaseWithoutAnInstalledSparkNamesWhatToInstall(@TempDir Path dir) throws Exception {
    assumeTrue(System.getenv("SPARK_HOME") == null, "the test JVM names no Spark installation");
    Path release = releaseSparkFolder(dir);

    assertThatThrownBy(() -> parsed(dir).launch(release.toString()))
        .hasMessageContaining("Apache Spark 4.2").hasMessageContaining("--spark-home").hasMessageContaining("SPARK_HOME")
        .hasMessageContaining("spark.apache.org");
  }

  @Test
  void aSparkHomeWithoutSparksJarsIsRefusedByName(@TempDir Path dir) throws Exception {
    Path release = releaseSparkFolder(dir);
    Path notSpark = Files.createDirectories(dir.resolve("not-spark/jars"));

    assertThatThrownBy(() -> parsed(dir, "--spark-home", notSpark.getParent().toString()).launch(release.toString()))
        .hasMessageContaining("not-spark is not a Spark installation").hasMessageContaining("spark-4.2.0-bin-hadoop3");
  }

  /** A source checkout's build brings Spark: an installed one is not asked for. */
  @Test
  void theModuleBuildNeedsNoInstalledSpark(@TempDir Path dir) throws Exception {
    JobLaunch launch = parsed(dir, "--spark-home", dir.resolve("nowhere").toString()).launch(sparkBuild(dir).toString());

    assertThat(launch).isInstanceOf(JobLaunch.ModuleBuild.class);
    assertThat(launch.environment()).isEmpty();
  }

  /** A real child process: its exit status comes back, its lines without control characters. */
  @Test
  void theJobsOutputReachesTheLogWithoutControlCharacters() throws Exception {
    List<String> lines = new ArrayList<>();
    int status = ScopeCommand.runJob(List.of("sh", "-c", "printf 'stage\\033[2J done\\n'; echo to-stderr >&2; exit $CODE"),
        java.util.Map.of("CODE", "3"), lines::add);

    assertThat(status).isEqualTo(3);
    assertThat(lines).hasSize(2).contains("to-stderr").noneMatch(line -> line.chars().anyMatch(c -> c < 0x20));
    assertThat(lines.getFirst()).startsWith("stage").endsWith("done");
  }

  /** A folder that looks like the spark module's build. */
  private static Path sparkBuild(Path dir) throws java.io.IOException {
    Path home = Files.createDirectories(dir.resolve("spark-build"));
    Files.createFile(home.resolve("kvscope-spark-0.2.0.jar"));
    Files.writeString(home.resolve("classpath.txt"), "/lib/a.jar\n");
    Files.writeString(home.resolve("jvm.args"), "\n");
    return home;
  }

  /** A folder that looks like a release's spark/: the spark-submit jar and the flags, no class path. */
  private static Path releaseSparkFolder(Path dir) throws java.io.IOException {
    Path home = Files.createDirectories(dir.resolve("release/spark"));
    Files.createFile(home.resolve("kvscope-spark-0.2.0-spark-submit.jar"));
    Files.writeString(home.resolve("jvm.args"), "\n");
    return home;
  }

  /** A folder that looks like an installed Spark: its jars/. */
  private static Path installedSpark(Path dir) throws java.io.IOException {
    Path jars = Files.createDirectories(dir.resolve("spark-4.2.0-bin-hadoop3/jars"));
    Files.createFile(jars.resolve("spark-core_2.13-4.2.0.jar"));
    return jars.getParent();
  }

  /** scope as picocli parses {@code logs --out DIR/out} and {@code options}. */
  private static ScopeCommand parsed(Path dir, String... options) {
    ScopeCommand scope = new ScopeCommand();
    List<String> args = new ArrayList<>(List.of(dir.resolve("logs").toString(), "--out", dir.resolve("out").toString()));
    args.addAll(List.of(options));
    new picocli.CommandLine(scope).parseArgs(args.toArray(String[]::new));
    return scope;
  }

  private static ScopeCommand command(Path dir) {
    ScopeCommand scope = new ScopeCommand();
    scope.inputs = List.of("in");
    scope.out = dir.resolve("out");
    scope.master = "local[2]";
    return scope;
  }
}

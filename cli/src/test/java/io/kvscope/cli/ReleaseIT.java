package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release tarball, unpacked and run as a user on an incident workstation would: with no
 * {@code JAVA_HOME} its launcher finds a JDK 21+ by itself where Maven's toolchains look (this
 * test's JDK is offered through a {@code JAVAnn_HOME} variable, one of those places), and the jar
 * runs with {@code java -jar}.
 */
class ReleaseIT {

  @TempDir static Path unpacked;
  static Path home;

  @BeforeAll
  static void unpack() throws Exception {
    home = unpackInto(unpacked);
  }

  /** The release built by package, unpacked into {@code dir}: its folder. */
  static Path unpackInto(Path dir) throws Exception {
    Path tarball = Path.of(System.getProperty("kvscope.release"));
    assertThat(tarball).as("the release built by package").exists();
    Result tar = run(List.of("tar", "-xzf", tarball.toString(), "-C", dir.toString()), Map.of());
    assertThat(tar.exit).as(tar.err).isZero();
    return dir.resolve("kvscope-" + System.getProperty("kvscope.version"));
  }

  @Test
  void theLauncherFindsAJdkAndPrintsTheReleaseAndCommit() throws Exception {
    Result version = launcher("-V");
    assertThat(version.exit).as(version.err).isZero();
    assertThat(version.out.strip())
        .startsWith("kvscope " + System.getProperty("kvscope.version") + " (")
        .doesNotContain("unknown");
  }

  @Test
  void theJarRunsOnItsOwnWithItsLibraries() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Result version = run(List.of(java, "-jar", home.resolve("kvscope.jar").toString(), "--version"), Map.of());
    assertThat(version.exit).as(version.err).isZero();
    assertThat(version.out).startsWith("kvscope " + System.getProperty("kvscope.version"));
  }

  /** The jar's manifest starts the Java 8 entry point: an old java -jar says what to run instead. */
  @Test
  void theJarOnAnOldJavaSaysWhatToRun() throws Exception {
    Path old = LauncherScriptsTest.oldJava();
    org.junit.jupiter.api.Assumptions.assumeTrue(old != null, "no Java older than 21 under /usr/lib/jvm");
    Result refused = run(List.of(old.toString(), "-jar", home.resolve("kvscope.jar").toString(), "--version"), Map.of());
    assertThat(refused.exit).isEqualTo(2);
    assertThat(refused.err).contains("needs Java 21 or newer").doesNotContain("UnsupportedClassVersionError");
  }

  @Test
  void aRealCommandRunsFromTheRelease(@TempDir Path work) throws Exception {
    Result generate = launcher("generate", "--out", work.resolve("incident").toString(), "--scale", "0.02x", "--seed", "3");
    assertThat(generate.exit).as(generate.err).isZero();
    assertThat(work.resolve("incident/truth.json")).isRegularFile();
  }

  @Test
  void shellCompletionIsGeneratedForEveryCommand() throws Exception {
    Result completion = launcher("generate-completion");
    assertThat(completion.exit).as(completion.err).isZero();
    assertThat(completion.out).contains("complete -F").contains("ingest").contains("analyze").contains("audit");
  }

  @Test
  void theReleaseCarriesItsDocumentation() throws Exception {
    assertThat(home.resolve("README.md")).isRegularFile();
    // The release's README speaks of the release's own commands, not of a source checkout's.
    String readme = Files.readString(home.resolve("README.md"));
    assertThat(readme).contains("bin/kvscope demo").doesNotContain("./mvnw -B").doesNotContain("./kvscope ");
    assertThat(home.resolve("docs/project-readme.md")).isRegularFile();
    assertThat(home.resolve("docs/threat-model.md")).isRegularFile();
    assertThat(home.resolve("bin/kvscope")).isExecutable();
  }

  private static Result launcher(String... args) throws Exception {
    return launcher(home, Map.of(), Duration.ofMinutes(5), args);
  }

  /** {@code release}'s bin/kvscope with {@code args}, {@code extraEnv} added, within {@code limit}. */
  static Result launcher(Path release, Map<String, String> extraEnv, Duration limit, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(release.resolve("bin/kvscope").toString()));
    command.addAll(List.of(args));
    // No JAVA_HOME and a PATH without this JDK: the launcher has to discover it.
    Map<String, String> env = new java.util.HashMap<>(extraEnv);
    env.put("JAVA_KVSCOPE_TEST_HOME", System.getProperty("java.home"));
    return run(command, env, limit);
  }

  record Result(int exit, String out, String err) {}

  private static Result run(List<String> command, Map<String, String> extraEnv) throws Exception {
    return run(command, extraEnv, Duration.ofMinutes(5));
  }

  /** Runs {@code command} without JAVA_HOME, a Spark or a JDK on the PATH. */
  private static Result run(List<String> command, Map<String, String> extraEnv, Duration limit) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("JAVA_HOME");
    builder.environment().remove("SPARK_HOME");
    builder.environment().remove(ScopeCommand.SPARK_HOME);
    builder.environment().put("PATH", "/usr/bin:/bin");
    builder.environment().putAll(extraEnv);
    Path out = Files.createTempFile("release-it", ".out");
    Path err = Files.createTempFile("release-it", ".err");
    Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(command + " did not finish in " + limit);
    }
    try {
      return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.delete(out);
      Files.delete(err);
    }
  }
}

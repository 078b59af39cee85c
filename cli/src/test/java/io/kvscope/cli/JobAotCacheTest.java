package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark job JVM's AOT cache on a real JVM: a build's first run records it, the next maps it, a
 * rebuilt jar records again, and a run that fails or cannot be archived leaves no cache. The job
 * here is a small program from two real jars in a stand-in module build (picocli's completion
 * script generator), so the test needs no Spark.
 */
class JobAotCacheTest {

  private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

  private static Path jarOf(Class<?> type) throws Exception {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  /** A module build of copies of two real jars, so the test may touch them. */
  private static JobLaunch.ModuleBuild build(Path dir) throws Exception {
    Path jar = Files.copy(jarOf(picocli.CommandLine.class), dir.resolve("job.jar"));
    Path library = Files.copy(jarOf(com.fasterxml.jackson.core.JsonParser.class), dir.resolve("library.jar"));
    Path flags = Files.writeString(dir.resolve("jvm.args"), "-Dkvscope.job=stand-in\n");
    return new JobLaunch.ModuleBuild(jar, library.toString(), flags);
  }

  private static int run(JobLaunch.ModuleBuild build, List<String> options) throws Exception {
    List<String> command = new ArrayList<>(List.of(JAVA.toString(), "@" + build.flags()));
    command.addAll(options);
    command.addAll(List.of("-cp", build.jar() + File.pathSeparator + build.classPath(), "picocli.AutoComplete", "--help"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return process.exitValue();
  }

  private static List<Path> files(Path folder) throws Exception {
    try (var listing = Files.list(folder)) {
      return listing.sorted().toList();
    }
  }

  @Test
  void aBuildsFirstRunRecordsTheCacheAndTheNextMapsIt(@TempDir Path tmp) throws Exception {
    assumeTrue(Runtime.version().feature() >= JobAotCache.FIRST_JDK, "the JVM records a cache in the run itself from JDK 25");
    JobLaunch.ModuleBuild build = build(Files.createDirectories(tmp.resolve("build")));
    Map<String, String> environment = Map.of("XDG_CACHE_HOME", tmp.resolve("cache").toString());
    Path folder = tmp.resolve("cache/kvscope/aot");

    JobAotCache first = JobAotCache.of(build, JAVA, List.of("-Xmx256m"), 25, environment);
    assertThat(first.options()).anyMatch(o -> o.startsWith("-XX:AOTCacheOutput=" + folder)).contains("-Xlog:aot*=off");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder))).isEqualTo("rwx------");
    assertThat(run(build, withHeap(first.options()))).isZero();
    first.finished(true);
    List<Path> made = files(folder);
    assertThat(made).singleElement().satisfies(cache -> {
      assertThat(cache.getFileName().toString()).matches("scope-job-[0-9a-f]{16}\\.aot");
      assertThat(Files.size(cache)).isPositive();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cache))).isEqualTo("rw-------");
    });

    JobAotCache second = JobAotCache.of(build, JAVA, List.of("-Xmx256m"), 25, environment);
    assertThat(second.options()).contains("-XX:AOTCache=" + made.get(0)).noneMatch(o -> o.startsWith("-XX:AOTCacheOutput"));
    assertThat(run(build, withHeap(second.options()))).isZero();
    second.finished(true);
    assertThat(files(folder)).isEqualTo(made);

    // Another option or a rebuilt jar: another cache, recorded again.
    assertThat(JobAotCache.of(build, JAVA, List.of("-Xmx512m"), 25, environment).options())
        .anyMatch(o -> o.startsWith("-XX:AOTCacheOutput="));
    Files.setLastModifiedTime(build.jar(), FileTime.fromMillis(Files.getLastModifiedTime(build.jar()).toMillis() - 60_000));
    JobAotCache rebuilt = JobAotCache.of(build, JAVA, List.of("-Xmx256m"), 25, environment);
    assertThat(rebuilt.options()).anyMatch(o -> o.startsWith("-XX:AOTCacheOutput="));
    assertThat(run(build, withHeap(rebuilt.options()))).isZero();
    rebuilt.finished(true);
    assertThat(files(folder)).singleElement().isNotEqualTo(made.get(0)); // the earlier build's cache dropped
  }

  private static List<String> withHeap(List<String> cacheOptions) {
    List<String> options = new ArrayList<>(List.of("-Xmx256m"));
    options.addAll(cacheOptions);
    return options;
  }

  @Test
  void aFailedRunLeavesNoCacheAndARunThatCouldNotRecordIsNotRetried(@TempDir Path tmp) throws Exception {
    JobLaunch.ModuleBuild build = build(Files.createDirectories(tmp.resolve("build")));
    Map<String, String> environment = Map.of("XDG_CACHE_HOME", tmp.resolve("cache").toString());
    Path folder = tmp.resolve("cache/kvscope/aot");

    JobAotCache failing = JobAotCache.of(build, JAVA, List.of(), 25, environment);
    Path recording = Path.of(failing.options().get(0).substring("-XX:AOTCacheOutput=".length()));
    Files.writeString(recording, "half a cache");
    failing.finished(false);
    assertThat(files(folder)).isEmpty();

    JobAotCache unrecorded = JobAotCache.of(build, JAVA, List.of(), 25, environment);
    unrecorded.finished(true); // the job succeeded but its JVM wrote no cache
    assertThat(files(folder)).singleElement().satisfies(p -> assertThat(p.toString()).endsWith(".failed"));
    assertThat(JobAotCache.of(build, JAVA, List.of(), 25, environment).options()).isEmpty();
  }

  @Test
  void noCacheWhenSwitchedOffOnAnOlderJdkBesideTheUsersOwnOnAnInstalledSparkOrWithoutAFolder(@TempDir Path tmp) throws Exception {
    JobLaunch.ModuleBuild build = build(Files.createDirectories(tmp.resolve("build")));
    Map<String, String> environment = Map.of("XDG_CACHE_HOME", tmp.resolve("cache").toString());
    assertThat(JobAotCache.of(build, JAVA, List.of(), 25, Map.of("XDG_CACHE_HOME", tmp.toString(), "KVSCOPE_AOT", "0"))
        .options()).isEmpty();
    assertThat(JobAotCache.of(build, JAVA, List.of(), 21, environment).options()).isEmpty();
    assertThat(JobAotCache.of(build, JAVA, List.of("-XX:AOTCache=/mine.aot"), 25, environment).options()).isEmpty();
    assertThat(JobAotCache.of(build, JAVA, List.of("-XX:SharedArchiveFile=/mine.jsa"), 25, environment).options()).isEmpty();
    assertThat(JobAotCache.of(build, JAVA, List.of("-Xshare:off"), 25, environment).options()).isEmpty(); // the JVM would refuse both
    Files.writeString(build.flags(), "-Dkvscope.job=stand-in\n-Xshare:auto\n");
    assertThat(JobAotCache.of(build, JAVA, List.of(), 25, environment).options()).isEmpty();
    JobLaunch installed = new JobLaunch.OnInstalledSpark(build.jar(), build.flags(), tmp, "local[2]");
    assertThat(JobAotCache.of(installed, JAVA, List.of(), 25, environment).options()).isEmpty();
    assertThat(tmp.resolve("cache")).doesNotExist();
    // A cache folder that cannot be made: no cache, and the job starts as without one.
    Path aFile = Files.writeString(tmp.resolve("not-a-folder"), "");
    assertThat(JobAotCache.of(build, JAVA, List.of(), 25, Map.of("XDG_CACHE_HOME", aFile.toString())).options()).isEmpty();
  }
}

package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvscope scope} from the release tarball, which does not carry Spark. Built with
 * {@code -Pspark-submit}, the release holds the spark-submit jar in {@code spark/}, and scope runs it
 * on an Apache Spark installed on the machine. Here that installation is a folder laid out as a Spark
 * home: its {@code jars/} links Spark's jars from Maven (the spark module's class path without
 * kvscope's modules and what only kvscope needs), as a Spark 4.2 distribution's {@code jars/} holds
 * them. Run it with
 * {@code ./mvnw -B -o -Pspark-submit -pl cli -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=ScopeReleaseIT}.
 */
class ScopeReleaseIT {

  /** The spark module's class path, which the spark-submit profile names (cli/pom.xml). */
  private static final String SPARK_CLASSPATH = "kvscope.spark.classpath";
  /** What a Spark installation lacks and the spark-submit jar brings, as in the spark module's StandaloneClusterTest. */
  private static final Pattern KVSCOPE_ONLY = Pattern.compile(
      "lucene-.*|jackson-dataformat-(yaml|csv)-.*|arrow-memory-unsafe-.*");
  /** Spark's fixed cost is minutes of a small shared machine's CPU, whatever the input. */
  private static final Duration SCOPE_LIMIT = Duration.ofMinutes(25);
  /** No AOT cache recorded for a release unpacked once. */
  private static final Map<String, String> NO_AOT = Map.of("KVSCOPE_AOT", "0");

  @Test
  void scopeOnAnInstalledSparkPrintsTheSummaryAnalyzePrints(@TempDir Path work) throws Exception {
    String classPath = System.getProperty(SPARK_CLASSPATH);
    assumeTrue(classPath != null, "the release carries the Spark job only when built with -Pspark-submit");
    Path release = ReleaseIT.unpackInto(work);
    Path spark = sparkHome(Path.of(classPath), work.resolve("spark-4.2.0-bin-hadoop3"));
    try {
      scopeAndAnalyze(release, spark, work);
    } finally {
      // The links go before the folder does: JUnit warns of every link that leads out of it.
      try (java.util.stream.Stream<Path> links = Files.list(spark.resolve("jars"))) {
        for (Path link : links.toList()) {
          Files.delete(link);
        }
      }
    }
  }

  private static void scopeAndAnalyze(Path release, Path spark, Path work) throws Exception {
    Path incident = work.resolve("incident");
    ReleaseIT.Result generate = ReleaseIT.launcher(release, NO_AOT, Duration.ofMinutes(5),
        "generate", "--out", incident.toString(), "--scale", "0.1x", "--seed", "1");
    assertThat(generate.exit()).as(generate.err()).isZero();

    ReleaseIT.Result analyze = ReleaseIT.launcher(release, NO_AOT, Duration.ofMinutes(10),
        "analyze", incident.toString(), "--index", work.resolve("index").toString(), "--out", work.resolve("report").toString());
    Map<String, String> withSpark = Map.of("KVSCOPE_AOT", "0", "SPARK_HOME", spark.toString());
    ReleaseIT.Result scope = ReleaseIT.launcher(release, withSpark, SCOPE_LIMIT,
        "scope", incident.toString(), "--out", work.resolve("scoped").toString(), "--master", "local[2]", "-q");

    assertThat(analyze.exit()).as(analyze.err()).isZero();
    assertThat(scope.exit()).as(scope.err()).isZero();
    List<String> scoped = scope.out().replace(work.resolve("scoped/report").toString(), "REPORT").lines().toList();
    List<String> single = analyze.out().replace(work.resolve("report").toString(), "REPORT").lines().toList();
    // analyze INCIDENT prints its ingest's lines first; the exposure summary follows, as scope prints it.
    assertThat(scoped).as("scope's summary").anyMatch(line -> line.contains("REPORT"))
        .isEqualTo(single.subList(Math.max(0, single.size() - scoped.size()), single.size()));
    assertThat(work.resolve("scoped/report/report.json")).isRegularFile();
    assertThat(work.resolve("scoped/index")).isDirectory();
  }

  /** Without -Pspark-submit the release has no spark/ and says how to get one; with it, it names the Spark to install. */
  @Test
  void withoutAnInstalledSparkScopeNamesWhatToInstall(@TempDir Path work) throws Exception {
    Path release = ReleaseIT.unpackInto(work);

    ReleaseIT.Result scope = ReleaseIT.launcher(release, NO_AOT, Duration.ofMinutes(5),
        "scope", work.resolve("logs").toString(), "--out", work.resolve("scoped").toString());

    assertThat(scope.exit()).isEqualTo(ExitCodes.ERROR);
    if (Files.isDirectory(release.resolve("spark"))) {
      assertThat(scope.err()).contains("Apache Spark 4.2").contains("--spark-home").contains("SPARK_HOME")
          .contains("spark-4.2.0-bin-hadoop3");
    } else {
      assertThat(scope.err()).contains("-Pspark-submit");
    }
    assertThat(work.resolve("scoped")).doesNotExist();
  }

  /** A Spark home at {@code home} whose jars/ links every jar of {@code classPathFile} a Spark installation has. */
  private static Path sparkHome(Path classPathFile, Path home) throws Exception {
    Path jars = Files.createDirectories(home.resolve("jars"));
    for (String entry : Files.readString(classPathFile).strip().split(File.pathSeparator)) {
      Path jar = Path.of(entry);
      String name = jar.getFileName().toString();
      boolean kvscopes = entry.contains(File.separator + "io" + File.separator + "kvscope" + File.separator)
          || name.startsWith("kvscope-") || KVSCOPE_ONLY.matcher(name).matches();
      if (name.endsWith(".jar") && !kvscopes && !Files.exists(jars.resolve(name))) {
        Files.createSymbolicLink(jars.resolve(name), jar);
      }
    }
    assertThat(jars.resolve("spark-core_2.13-4.2.0.jar")).as("Spark's jars in " + classPathFile).exists();
    return home;
  }
}

package io.kvscope.cli;

import io.kvscope.ingest.Printable;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How {@code kvscope scope} starts the Spark job's JVM. The job runs in a JVM of its own because
 * Spark brings its own Jackson (2.21), which the rest of kvscope (2.23) cannot share a class path
 * with. Its code comes from one of two builds:
 * <ul>
 *   <li>{@link ModuleBuild}: the spark module's build in a source checkout, whose
 *       {@code classpath.txt} brings Spark's jars from Maven, so nothing need be installed;
 *   <li>{@link OnInstalledSpark}: a release's {@code spark/} folder, the spark-submit jar (kvscope
 *       with its conflicting libraries relocated, no Spark), run on an Apache Spark the user has
 *       installed, through {@code spark-submit}'s own entry point on that Spark's {@code jars/}.
 * </ul>
 * Both folders hold {@code jvm.args}: the JVM flags a session started outside Spark's launcher needs.
 */
sealed interface JobLaunch {

  String JOB = "io.kvscope.spark.ScopeJob";
  /** The Spark the job is built against; another 4.x may work, 4.0 and 4.1 do not on JDK 25. */
  String SPARK = "Apache Spark 4.2";

  /** The job's JVM: java, its flags, {@code javaOptions} and class path, then {@code jobArguments}. */
  List<String> command(Path java, List<String> javaOptions, List<String> jobArguments);

  /** What the job's JVM needs in its environment besides this JVM's. */
  Map<String, String> environment();

  /** The spark module's build: its jar, then the module's class path, Spark's jars included. */
  record ModuleBuild(Path jar, String classPath, Path flags) implements JobLaunch {

    @Override
    public List<String> command(Path java, List<String> javaOptions, List<String> jobArguments) {
      List<String> command = jvm(java, flags, javaOptions);
      command.addAll(List.of("-cp", jar + File.pathSeparator + classPath, JOB));
      command.addAll(jobArguments);
      return command;
    }

    @Override
    public Map<String, String> environment() {
      return Map.of();
    }
  }

  /**
   * A release's spark-submit jar on an installed Spark. It goes through
   * {@code org.apache.spark.deploy.SparkSubmit}, as {@code $SPARK_HOME/bin/spark-submit} would: the
   * installation's {@code conf/spark-defaults.conf} applies, and with a cluster master the jar is
   * served to the executors. It runs on this JVM's java rather than the one {@code spark-submit}
   * would pick, which may be older than the JDK 21 kvscope needs.
   */
  record OnInstalledSpark(Path jar, Path flags, Path sparkHome, String master) implements JobLaunch {

    @Override
    public List<String> command(Path java, List<String> javaOptions, List<String> jobArguments) {
      String classPath = sparkHome.resolve("jars") + File.separator + "*";
      if (Files.isDirectory(sparkHome.resolve("conf"))) {
        classPath = sparkHome.resolve("conf") + File.pathSeparator + classPath;
      }
      List<String> command = jvm(java, flags, javaOptions);
      command.addAll(List.of("-cp", classPath,
          "org.apache.spark.deploy.SparkSubmit", "--master", master, "--class", JOB, jar.toString()));
      command.addAll(jobArguments);
      return command;
    }

    @Override
    public Map<String, String> environment() {
      return Map.of("SPARK_HOME", sparkHome.toString());
    }
  }

  /** java with the build's flags file ({@code jvm.args}) and the user's options: how either JVM starts. */
  private static List<String> jvm(Path java, Path flags, List<String> javaOptions) {
    List<String> command = new ArrayList<>(List.of(java.toString(), "@" + flags));
    command.addAll(javaOptions);
    return command;
  }

  /**
   * The build in {@code home}: a module build when it holds {@code classpath.txt}, else a release's
   * spark-submit jar, which needs {@code installedSpark} (from {@code --spark-home} or
   * {@code SPARK_HOME}; null when neither names one).
   */
  static JobLaunch in(Path home, Path installedSpark, String master) throws IOException {
    Path flags = home.resolve("jvm.args");
    Path classPath = home.resolve("classpath.txt");
    Path moduleJar = jarIn(home, "kvscope-spark-[^-]+\\.jar");
    if (moduleJar != null && Files.isRegularFile(classPath) && Files.isRegularFile(flags)) {
      return new ModuleBuild(moduleJar, Files.readString(classPath).strip(), flags);
    }
    Path submitJar = jarIn(home, "kvscope-spark-[^-]+-spark-submit\\.jar");
    if (submitJar == null || !Files.isRegularFile(flags)) {
      throw new IllegalArgumentException(Printable.text(home) + " holds no build of the spark module (its jar, "
          + "classpath.txt and jvm.args, or the spark-submit jar and jvm.args); in a source checkout build it with"
          + " ./mvnw -pl spark -am package -DskipTests");
    }
    return new OnInstalledSpark(submitJar, flags, requireSpark(installedSpark), master);
  }

  /** {@code installed} if it holds Spark's jars; else a message naming what to install. */
  private static Path requireSpark(Path installed) throws IOException {
    String install = "download " + SPARK + " (spark-4.2.0-bin-hadoop3.tgz from https://spark.apache.org/downloads.html),"
        + " unpack it, and pass its folder with --spark-home DIR or set SPARK_HOME to it. Executors need JDK 21 or newer";
    if (installed == null) {
      throw new IllegalArgumentException("kvscope scope runs its Spark job on " + SPARK + " installed on this machine,"
          + " which this release does not carry, and neither --spark-home nor SPARK_HOME names one: " + install);
    }
    if (jarIn(installed.resolve("jars"), "spark-core_2\\.13-.+\\.jar") == null) {
      throw new IllegalArgumentException(Printable.text(installed) + " is not a Spark installation (no"
          + " jars/spark-core_2.13-*.jar): " + install);
    }
    return installed.toAbsolutePath();
  }

  private static Path jarIn(Path folder, String name) throws IOException {
    if (!Files.isDirectory(folder)) {
      return null;
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(p -> p.getFileName().toString().matches(name)).sorted().findFirst().orElse(null);
    }
  }
}

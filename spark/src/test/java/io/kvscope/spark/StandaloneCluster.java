package io.kvscope.spark;

import io.kvscope.ingest.Printable;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Spark standalone cluster on 127.0.0.1: a master and workers, each a JVM of its own started from
 * Spark's jars as {@code start-master.sh} and {@code start-worker.sh} start them, on ephemeral ports.
 * Every process's output goes to a file under the cluster's folder; {@link #close} kills what is
 * still running, executors included.
 *
 * <p>The Spark installation is the test's own class path: a folder laid out as a Spark home, whose
 * {@code jars/} links every jar the test JVM has that the caller counts as Spark's. A worker builds
 * its executors' class path from that folder, as on an installed cluster. kvscope's own classes
 * reach executors the way an application's do, as jars the driver serves ({@link #submit}), so the
 * test proves that shipping works and not only that a shared class path does.
 */
final class StandaloneCluster implements AutoCloseable {

  private static final Pattern MASTER_URL = Pattern.compile("Starting Spark master at (spark://\\S+)");
  private static final Duration START_LIMIT = Duration.ofMinutes(3);
  /**
   * Every JVM of the cluster lives for a few minutes on little data, on machines of few cores: the
   * C2 compiler and parallel GC threads would cost more CPU than they save.
   */
  private static final List<String> SHORT_LIVED = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  private final Path dir;
  private final Path home;
  private final List<String> jvmFlags;
  private final List<Process> processes = new ArrayList<>();
  private final List<Process> workers = new ArrayList<>();
  private final Path masterLog;
  private final String masterUrl;

  /**
   * Starts a master and {@code workers} workers of one core each, and waits until every worker has
   * registered. {@code jvmFlags} go to every JVM of the cluster, executors included;
   * {@code installed} tells by file name which jars of this JVM's class path the installation has.
   */
  StandaloneCluster(Path dir, int workerCount, List<String> jvmFlags, java.util.function.Predicate<String> installed)
      throws IOException, InterruptedException {
    this.dir = dir;
    this.jvmFlags = Stream.concat(SHORT_LIVED.stream(), jvmFlags.stream()).toList();
    this.home = sparkHome(dir.resolve("spark-home"), installed);
    this.masterLog = dir.resolve("master.log");
    Runtime.getRuntime().addShutdownHook(new Thread(this::close));
    try {
      // The REST submission server would take the fixed port 6066; nothing here submits through it.
      start(masterLog, List.of("-Dspark.master.rest.enabled=false"), "org.apache.spark.deploy.master.Master",
          "--host", "127.0.0.1", "--port", "0", "--webui-port", "0");
      masterUrl = await("the master's URL", () -> find(masterLog, MASTER_URL));
      for (int i = 1; i <= workerCount; i++) {
        Path work = Files.createDirectories(dir.resolve("worker-" + i));
        workers.add(start(dir.resolve("worker-" + i + ".log"), List.of(), "org.apache.spark.deploy.worker.Worker",
            "--host", "127.0.0.1", "--webui-port", "0", "--cores", "1", "--memory", "1g",
            "--work-dir", work.toString(), masterUrl));
      }
      await(workerCount + " workers registered", () ->
          read(masterLog).split("Registering worker ", -1).length - 1 >= workerCount ? "yes" : null);
    } catch (IOException | InterruptedException | RuntimeException e) {
      close();
      throw e;
    }
  }

  String masterUrl() {
    return masterUrl;
  }

  /**
   * Submits {@code mainClass} through {@code spark-submit}'s own entry point in client mode: the
   * driver is a JVM of its own, {@code application} its jar (the first) and the jars it needs (the
   * rest), which the driver serves to the executors.
   */
  Process submit(String name, List<Path> application, String mainClass, List<String> args) throws IOException {
    List<String> command = new ArrayList<>(List.of("org.apache.spark.deploy.SparkSubmit",
        "--master", masterUrl, "--class", mainClass,
        "--conf", "spark.ui.enabled=false",
        "--conf", "spark.executor.memory=768m",
        "--conf", "spark.sql.shuffle.partitions=2",
        "--conf", "spark.executor.extraJavaOptions=" + String.join(" ", jvmFlags)));
    if (application.size() > 1) {
      command.add("--jars");
      command.add(String.join(",", application.subList(1, application.size()).stream().map(Path::toString).toList()));
    }
    command.add(application.get(0).toString());
    command.addAll(args);
    return start(driverLog(name), List.of("-Xmx1g"), command.toArray(String[]::new));
  }

  Path driverLog(String name) {
    return dir.resolve("driver-" + name + ".log");
  }

  /** A worker's process (from 1). */
  Process worker(int number) {
    return workers.get(number - 1);
  }

  /** The executors' logs a worker kept (its {@code work/APP/EXECUTOR/stderr}). */
  List<Path> executorLogs(int worker) throws IOException {
    try (Stream<Path> walk = Files.walk(dir.resolve("worker-" + worker))) {
      return walk.filter(p -> p.getFileName().toString().equals("stderr")).sorted().toList();
    }
  }

  /** Kills a process and whatever it started, as a machine that dies takes them all: SIGKILL, no shutdown hooks. */
  static void kill(ProcessHandle process) {
    List<ProcessHandle> children = process.descendants().toList();
    process.destroyForcibly();
    children.forEach(ProcessHandle::destroyForcibly);
  }

  /** The last lines of every log of the cluster, drivers and executors included. */
  String logs() {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path log : walk.filter(p -> p.toString().endsWith(".log") || p.getFileName().toString().equals("stderr"))
          .sorted().toList()) {
        List<String> lines = read(log).lines().toList();
        all.append("==== ").append(dir.relativize(log)).append(" (last 80 of ").append(lines.size()).append(" lines)\n");
        lines.subList(Math.max(0, lines.size() - 80), lines.size())
            .forEach(line -> all.append(Printable.text(line)).append('\n'));
      }
    } catch (IOException e) {
      all.append("(logs unreadable: ").append(e).append(")\n");
    }
    return all.toString();
  }

  @Override
  public void close() {
    for (Process process : processes.reversed()) {
      kill(process.toHandle());
    }
    for (Process process : processes) {
      try {
        process.waitFor(20, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    // The links to the jars go now, so that whoever removes the folder meets no link that leads out of it.
    if (!Files.isDirectory(home.resolve("jars"))) {
      return;
    }
    try (Stream<Path> links = Files.list(home.resolve("jars"))) {
      for (Path link : links.toList()) {
        Files.deleteIfExists(link);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A JVM of the cluster, from the Spark home's jars, its output to {@code log}. */
  private Process start(Path log, List<String> ownFlags, String... mainAndArgs) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m"); // a master or worker is small; a driver's own flag comes later and wins
    command.addAll(jvmFlags);
    command.addAll(ownFlags);
    command.add("-cp");
    command.add(home.resolve("jars") + File.separator + "*");
    command.addAll(List.of(mainAndArgs));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    Map<String, String> env = builder.environment();
    env.put("SPARK_HOME", home.toString());
    // A worker builds its executors' command with Spark's launcher, which otherwise looks for the
    // Scala version in a source build's launcher/target folder.
    env.put("SPARK_SCALA_VERSION", "2.13");
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
    Process process = builder.start();
    processes.add(process);
    return process;
  }

  /** Waits for {@code value} to give non-null while every process still runs. */
  private String await(String what, ValueSupplier value) throws InterruptedException {
    long deadline = System.nanoTime() + START_LIMIT.toNanos();
    while (System.nanoTime() < deadline) {
      String found = value.get();
      if (found != null) {
        return found;
      }
      for (Process process : processes) {
        if (!process.isAlive()) {
          throw new IllegalStateException("a cluster process ended (exit " + process.exitValue() + ") before " + what
              + "\n" + logs());
        }
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException("no " + what + " within " + START_LIMIT + "\n" + logs());
  }

  /** Waits up to {@code limit} for {@code condition}; false when the limit passed. */
  static boolean awaitCondition(Duration limit, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(100);
    }
    return condition.getAsBoolean();
  }

  private interface ValueSupplier {
    String get();
  }

  /** A folder laid out as a Spark installation: {@code jars/} links each {@code installed} jar of this JVM's class path. */
  private static Path sparkHome(Path home, java.util.function.Predicate<String> installed) throws IOException {
    Path jars = Files.createDirectories(home.resolve("jars"));
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path jar = Path.of(entry);
      if (entry.endsWith(".jar") && Files.isRegularFile(jar) && installed.test(jar.getFileName().toString())
          && !Files.exists(jars.resolve(jar.getFileName()))) {
        Files.createSymbolicLink(jars.resolve(jar.getFileName()), jar.toAbsolutePath());
      }
    }
    if (!Files.exists(jars.resolve("spark-core_2.13-" + org.apache.spark.package$.MODULE$.SPARK_VERSION() + ".jar"))) {
      throw new IllegalStateException("Spark's jars are not on java.class.path: " + System.getProperty("java.class.path"));
    }
    return home;
  }

  /**
   * The application's jars: the folder of {@code main}'s classes first, then every other class
   * folder of this JVM's class path but test classes, each packed into a jar of its own (merging
   * folders could drop a service file that two of them hold).
   */
  static List<Path> applicationJars(Class<?> main, Path dir) throws IOException {
    Path mainFolder;
    try {
      mainFolder = Path.of(main.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    List<Path> folders = new ArrayList<>(List.of(mainFolder));
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path folder = Path.of(entry);
      if (Files.isDirectory(folder) && !folder.equals(mainFolder) && !folder.getFileName().toString().equals("test-classes")) {
        folders.add(folder);
      }
    }
    List<Path> jars = new ArrayList<>();
    Files.createDirectories(dir);
    for (Path folder : folders) {
      // target/classes of module M becomes M.jar
      Path jar = dir.resolve(folder.getParent().getParent().getFileName() + ".jar");
      pack(folder, jar);
      jars.add(jar);
    }
    return jars;
  }

  private static void pack(Path folder, Path jar) throws IOException {
    try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
        Stream<Path> walk = Files.walk(folder)) {
      for (Path path : walk.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(new JarEntry(folder.relativize(path).toString().replace(File.separatorChar, '/')));
        Files.copy(path, out);
        out.closeEntry();
      }
    }
  }

  private static String find(Path log, Pattern pattern) {
    Matcher m = pattern.matcher(read(log));
    return m.find() ? m.group(1) : null;
  }

  static String read(Path log) {
    try {
      return Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

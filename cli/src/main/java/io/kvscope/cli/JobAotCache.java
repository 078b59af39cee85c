package io.kvscope.cli;

import io.kvscope.index.store.OwnerOnly;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The JDK's AOT cache (JDK 25+: classes loaded and linked, method profiles) for the Spark job's JVM,
 * as the launcher keeps one for kvscope's own JVMs (cli/src/dist/bin/jdk.sh). The job's JVM loads
 * Spark's and kvscope's classes and compiles their hot code afresh on every run; with a cache its
 * JVM took 10% less CPU at 0.25x, the driver's thread and C2 most of it (bench/README.md, "Spark:
 * the job's JVM beside its tasks"). The first successful run of a build records it
 * ({@code -XX:AOTCacheOutput}, written as the JVM exits); later runs map it. A cache belongs to
 * one java, one set of JVM options and one class path, each jar by its size and time, so a
 * rebuild simply uses another file. Kept owner-only in the launcher's folder; off with
 * {@code KVSCOPE_AOT=0}, or when the user's options choose an AOT cache or a CDS archive of
 * their own. Only a module build's job has one: an installed Spark's class path holds a folder,
 * which the JVM cannot archive.
 */
final class JobAotCache {

  /** The environment variable that turns the caches off, the launcher's as well. */
  static final String SWITCH = "KVSCOPE_AOT";
  /** The JDK whose JVM records a cache in the run itself (JEP 514). */
  static final int FIRST_JDK = 25;

  /** A build's cache or its note not to try again, as named by {@link #of}. */
  private static final String KEPT = "scope-job-[0-9a-f]{16}\\.(aot|failed)";

  private static final JobAotCache NONE = new JobAotCache(List.of(), null, null, null);
  /** The JVM's own notes on the cache would land in the job's log: a cache is an optimization only. */
  private static final List<String> QUIET = List.of("-Xlog:aot*=off", "-Xlog:cds*=off");

  private final List<String> options;
  private final Path cache;
  private final Path recording;
  private final Path failed;

  private JobAotCache(List<String> options, Path cache, Path recording, Path failed) {
    this.options = options;
    this.cache = cache;
    this.recording = recording;
    this.failed = failed;
  }

  /**
   * The cache for the job {@code launch} starts on {@code java} with {@code javaOptions}, on a JVM
   * of {@code jdkFeature}, under {@code environment}'s switch and cache folder.
   */
  static JobAotCache of(JobLaunch launch, Path java, List<String> javaOptions, int jdkFeature,
      Map<String, String> environment) {
    try {
      return forBuild(launch, java, javaOptions, jdkFeature, environment);
    } catch (IOException | RuntimeException unusable) {
      return NONE; // a cache only saves CPU: a folder that cannot be made or read never stops the job
    }
  }

  private static JobAotCache forBuild(JobLaunch launch, Path java, List<String> javaOptions, int jdkFeature,
      Map<String, String> environment) throws IOException {
    if (!(launch instanceof JobLaunch.ModuleBuild build) || jdkFeature < FIRST_JDK
        || "0".equals(environment.get(SWITCH)) || choosesOwnArchive(javaOptions)
        || choosesOwnArchive(List.of(Files.readString(build.flags()).split("\\s+")))) {
      return NONE;
    }
    Path folder = folder(environment);
    String key = "scope-job-" + key(build, java, javaOptions);
    Path cache = folder.resolve(key + ".aot");
    Path failed = folder.resolve(key + ".failed");
    if (Files.isRegularFile(cache) && Files.size(cache) > 0) {
      return new JobAotCache(concat("-XX:AOTCache=" + cache), cache, null, null);
    }
    if (Files.exists(failed)) {
      return NONE; // this build's job could not be archived: not tried again on every run
    }
    Path recording = folder.resolve(key + "." + ProcessHandle.current().pid() + ".aot");
    return new JobAotCache(concat("-XX:AOTCacheOutput=" + recording), cache, recording, failed);
  }

  /** Options the JVM refuses beside a cache it records, or that choose an archive of the user's own. */
  private static boolean choosesOwnArchive(List<String> options) {
    return options.stream().anyMatch(o -> o.startsWith("-XX:AOT") || o.startsWith("-XX:SharedArchiveFile")
        || o.startsWith("-Xshare") || o.startsWith("-XX:SharedClassListFile") || o.startsWith("-XX:+DumpLoadedClassList"));
  }

  /** The job JVM's options for the cache: none, the cache to map, or where to record one. */
  List<String> options() {
    return options;
  }

  /**
   * After the job: a cache recorded by a run that succeeded becomes the build's; one that failed,
   * or a recording the JVM could not write, leaves nothing behind but the note not to try again.
   */
  void finished(boolean succeeded) {
    if (recording == null) {
      return;
    }
    try {
      keepOrDrop(succeeded);
    } catch (IOException | RuntimeException unusable) {
      recording.toFile().delete(); // best effort: the job's own outcome stands whatever becomes of its cache
    }
  }

  private void keepOrDrop(boolean succeeded) throws IOException {
    if (succeeded && Files.isRegularFile(recording) && Files.size(recording) > 0) {
      OwnerOnly.file(recording);
      Files.move(recording, cache, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      dropOthers();
      return;
    }
    Files.deleteIfExists(recording);
    if (succeeded) {
      OwnerOnly.file(Files.writeString(failed, ""));
    }
  }

  /** Earlier builds' caches and notes (some 50 MB each), as the launcher drops its own; never a recording under way. */
  private void dropOthers() throws IOException {
    try (java.util.stream.Stream<Path> files = Files.list(cache.getParent())) {
      for (Path other : files.filter(p -> p.getFileName().toString().matches(KEPT)).toList()) {
        if (!other.equals(cache)) {
          Files.deleteIfExists(other);
        }
      }
    }
  }

  private static List<String> concat(String option) {
    return java.util.stream.Stream.concat(java.util.stream.Stream.of(option), QUIET.stream()).toList();
  }

  /** The launcher's folder, created owner-only: {@code $XDG_CACHE_HOME/kvscope/aot} or {@code ~/.cache/kvscope/aot}. */
  private static Path folder(Map<String, String> environment) throws IOException {
    String xdg = environment.get("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return OwnerOnly.directory(base.resolve("kvscope").resolve("aot"));
  }

  /** What the JVM checks a cache against: the java, the options and flags file, each jar's path, size and time. */
  private static String key(JobLaunch.ModuleBuild build, Path java, List<String> javaOptions) throws IOException {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
    StringBuilder identity = new StringBuilder(java.toAbsolutePath().toString()).append('\n')
        .append(Runtime.version()).append('\n').append(String.join("\n", javaOptions)).append('\n')
        .append(Files.readString(build.flags())).append('\n');
    for (String entry : (build.jar() + File.pathSeparator + build.classPath()).split(File.pathSeparator)) {
      Path jar = Path.of(entry);
      identity.append(entry);
      if (Files.isRegularFile(jar)) {
        identity.append(' ').append(Files.size(jar)).append(' ').append(Files.getLastModifiedTime(jar).toMillis());
      }
      identity.append('\n');
    }
    return HexFormat.of().formatHex(digest.digest(identity.toString().getBytes(StandardCharsets.UTF_8)), 0, 8);
  }
}

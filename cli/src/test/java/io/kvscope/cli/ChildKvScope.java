package io.kvscope.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs kvscope in a child JVM (the test's class path), optionally under a wrapper command such as
 * {@code setpriv} or {@code unshare}: for kills, memory limits and privileges a test JVM cannot
 * take from itself.
 */
final class ChildKvScope {

  /** What a finished child printed, its peak resident memory (kB, 0 when unknown) and run time. */
  record Result(int exitCode, String out, String err, long peakRssKb, long millis) {}

  private ChildKvScope() {}

  static List<String> command(List<String> wrapper, String maxHeap, String... args) {
    List<String> command = new ArrayList<>(wrapper);
    command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
    command.add("-Xmx" + maxHeap);
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("--enable-native-access=ALL-UNNAMED");
    if (Runtime.version().feature() >= 23) {
      command.add("--sun-misc-unsafe-memory-access=allow");
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(KvScope.class.getName());
    command.addAll(List.of(args));
    return command;
  }

  static Process start(Path logDir, String name, List<String> wrapper, String maxHeap, String... args) throws Exception {
    return start(logDir, name, java.util.Map.of(), wrapper, maxHeap, args);
  }

  /** As {@link #start(Path, String, List, String, String...)}, with variables set (or, mapped to null, unset). */
  static Process start(Path logDir, String name, java.util.Map<String, String> environment, List<String> wrapper,
      String maxHeap, String... args) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command(wrapper, maxHeap, args))
        .redirectOutput(logDir.resolve(name + ".out").toFile())
        .redirectError(logDir.resolve(name + ".err").toFile());
    environment.forEach((key, value) -> {
      if (value == null) {
        builder.environment().remove(key);
      } else {
        builder.environment().put(key, value);
      }
    });
    return builder.start();
  }

  /** Runs to the end (at most {@code minutes}) and returns what it printed. */
  static Result run(Path logDir, String name, List<String> wrapper, String maxHeap, long minutes, String... args)
      throws Exception {
    return run(logDir, name, java.util.Map.of(), wrapper, maxHeap, minutes, args);
  }

  /** As {@link #run(Path, String, List, String, long, String...)}, with variables set (or, mapped to null, unset). */
  static Result run(Path logDir, String name, java.util.Map<String, String> environment, List<String> wrapper,
      String maxHeap, long minutes, String... args) throws Exception {
    long started = System.nanoTime();
    Process child = start(logDir, name, environment, wrapper, maxHeap, args);
    long deadline = started + TimeUnit.MINUTES.toNanos(minutes);
    long peak = 0;
    // The JVM is the child itself, or the last process of a wrapper chain: sample the whole tree.
    while (!child.waitFor(200, TimeUnit.MILLISECONDS)) {
      if (System.nanoTime() > deadline) {
        child.destroyForcibly().waitFor();
        throw new AssertionError("kvscope " + String.join(" ", args) + " did not finish in " + minutes + " minutes");
      }
      peak = Math.max(peak, peakRssKb(child.toHandle()));
      for (ProcessHandle descendant : (Iterable<ProcessHandle>) child.descendants()::iterator) {
        peak = Math.max(peak, peakRssKb(descendant));
      }
    }
    return new Result(child.exitValue(), Files.readString(logDir.resolve(name + ".out")),
        Files.readString(logDir.resolve(name + ".err")), peak,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  /** The kernel's high-water mark of a process's resident memory (Linux), 0 when unreadable. */
  private static long peakRssKb(ProcessHandle process) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (Exception gone) {
      // finished between the check and the read, or not Linux
    }
    return 0;
  }

  /** True when {@code tool} runs here (e.g. {@code setpriv --help}). */
  static boolean works(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (Exception e) {
      return false;
    }
  }

  static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }
}

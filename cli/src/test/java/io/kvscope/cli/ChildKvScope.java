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

  /** What a finished child printed. */
  record Result(int exitCode, String out, String err) {}

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
    return new ProcessBuilder(command(wrapper, maxHeap, args))
        .redirectOutput(logDir.resolve(name + ".out").toFile())
        .redirectError(logDir.resolve(name + ".err").toFile())
        .start();
  }

  /** Runs to the end (at most {@code minutes}) and returns what it printed. */
  static Result run(Path logDir, String name, List<String> wrapper, String maxHeap, long minutes, String... args)
      throws Exception {
    Process child = start(logDir, name, wrapper, maxHeap, args);
    if (!child.waitFor(minutes, TimeUnit.MINUTES)) {
      child.destroyForcibly().waitFor();
      throw new AssertionError("kvscope " + String.join(" ", args) + " did not finish in " + minutes + " minutes");
    }
    return new Result(child.exitValue(), Files.readString(logDir.resolve(name + ".out")),
        Files.readString(logDir.resolve(name + ".err")));
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

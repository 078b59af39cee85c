package io.kvscope.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Runs child processes with their output in files. */
final class Processes {

  private Processes() {}

  /** Runs {@code command} to completion; returns its exit code. */
  static int run(List<String> command, Map<String, String> env, Path stdout, Path stderr) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(stdout.toFile())
        .redirectError(stderr.toFile());
    builder.environment().putAll(env);
    try {
      return builder.start().waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + command.get(0), e);
    }
  }

  /** Whether {@code program} can be started (e.g. {@code rg --version} works). */
  static boolean available(String... versionCommand) {
    try {
      Process p = new ProcessBuilder(versionCommand).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}

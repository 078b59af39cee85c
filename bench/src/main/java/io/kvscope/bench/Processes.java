package io.kvscope.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Runs child processes with their output in files. */
final class Processes {

  private Processes() {}

  /** Runs {@code command} to completion; returns its exit code. */
  static int run(List<String> command, Map<String, String> env, Path stdout, Path stderr) throws IOException {
    return runSampled(command, env, stdout, stderr, null).exit();
  }

  /**
   * The exit code of a run and its live heap peak in MB ({@code -1} when not sampled or no sample
   * was taken before it ended).
   */
  record SampledRun(int exit, long liveHeapPeakMb, int liveHeapSamples) {}

  /**
   * Runs {@code command} to completion with the live heap of the JVM it starts sampled every
   * {@code liveHeapInterval} (not at all when null).
   */
  static SampledRun runSampled(List<String> command, Map<String, String> env, Path stdout, Path stderr,
      Duration liveHeapInterval) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(stdout.toFile())
        .redirectError(stderr.toFile());
    builder.environment().putAll(env);
    try {
      Process process = builder.start();
      if (liveHeapInterval == null) {
        return new SampledRun(process.waitFor(), -1, 0);
      }
      try (LiveHeapSampler sampler = LiveHeapSampler.start(process, liveHeapInterval)) {
        int exit = process.waitFor();
        sampler.close();
        return new SampledRun(exit, sampler.samples() > 0 ? sampler.peakMb() : -1, sampler.samples());
      }
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

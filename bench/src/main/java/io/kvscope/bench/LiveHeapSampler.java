package io.kvscope.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The live heap of a running JVM, sampled: every interval, {@code jcmd PID GC.class_histogram}
 * (which runs a full collection first) reports the bytes still reachable. The GC log cannot say
 * this: G1 collects only the young generation while the heap has room, so "after GC" there still
 * holds old garbage and grows with the run's length, not with what it keeps. Each sample pauses
 * the measured process for one full collection (well under a second here), so the interval is
 * long.
 */
final class LiveHeapSampler implements AutoCloseable {

  private static final Pattern TOTAL = Pattern.compile("^Total\\s+\\d+\\s+(\\d+)\\s*$", Pattern.MULTILINE);

  private static final Duration FIRST_SAMPLE = Duration.ofSeconds(3);

  private final Path jcmd;
  private final Process root;
  private final Duration interval;
  private final Thread thread;
  private volatile boolean stopped;
  private volatile long peakBytes;
  private volatile int samples;

  private LiveHeapSampler(Path jcmd, Process root, Duration interval) {
    this.jcmd = jcmd;
    this.root = root;
    this.interval = interval;
    this.thread = Thread.ofPlatform().daemon().name("live-heap-sampler").start(this::sampleUntilStopped);
  }

  /**
   * Samples {@code root} if it is a JVM, else the first JVM among its descendants (it may be
   * started through /usr/bin/time and a launcher script).
   */
  static LiveHeapSampler start(Process root, Duration interval) {
    Path java = Path.of(ProcessHandle.current().info().command().orElse("java"));
    return new LiveHeapSampler(java.resolveSibling("jcmd"), root, interval);
  }

  long peakMb() {
    return Math.round(peakBytes / 1048576.0);
  }

  int samples() {
    return samples;
  }

  private void sampleUntilStopped() {
    try {
      Thread.sleep(FIRST_SAMPLE); // early, so that short runs get one too
      while (!stopped && root.isAlive()) {
        javaProcess().ifPresent(this::sample);
        Thread.sleep(interval);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Optional<ProcessHandle> javaProcess() {
    return Stream.concat(Stream.of(root.toHandle()), root.descendants())
        .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
        .findFirst();
  }

  private void sample(ProcessHandle jvm) {
    try {
      Process p = new ProcessBuilder(jcmd.toString(), Long.toString(jvm.pid()), "GC.class_histogram")
          .redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor() == 0) {
        Matcher m = TOTAL.matcher(out);
        if (m.find()) {
          peakBytes = Math.max(peakBytes, Long.parseLong(m.group(1)));
          samples++;
        }
      }
    } catch (IOException e) {
      // the process ended between finding it and asking it: no sample
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    stopped = true;
    thread.interrupt();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

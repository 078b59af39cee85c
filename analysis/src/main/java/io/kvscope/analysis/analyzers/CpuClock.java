package io.kvscope.analysis.analyzers;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * CPU time of the current thread, for the report's breakdown of where an analysis spends its time:
 * unlike wall time it does not grow when other processes share the machine.
 */
final class CpuClock {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private CpuClock() {}

  /** Nanoseconds of CPU this thread has used (wall time where the JVM cannot tell). */
  static long now() {
    return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
  }
}

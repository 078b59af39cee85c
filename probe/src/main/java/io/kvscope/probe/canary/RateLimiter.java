package io.kvscope.probe.canary;

import java.util.concurrent.TimeUnit;

/** Spaces request starts evenly: at most {@code perSecond} start in any second. */
final class RateLimiter {

  private final long intervalNanos;
  private long next = Long.MIN_VALUE;

  RateLimiter(double perSecond) {
    this.intervalNanos = (long) (1e9 / perSecond);
  }

  /** Waits for this caller's start slot. */
  void acquire() throws InterruptedException {
    long slot;
    synchronized (this) {
      long now = System.nanoTime();
      slot = next == Long.MIN_VALUE || next - now < 0 ? now : next;
      next = slot + intervalNanos;
    }
    long wait = slot - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }
}

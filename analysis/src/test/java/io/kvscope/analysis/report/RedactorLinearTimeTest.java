package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Describing a leaked span (data categories, masked excerpt) stays linear in the span on text
 * built to make the category patterns backtrack: 8x the text must cost about 8x, never 64x.
 * Measured in this thread's CPU time (best of several runs after a warm-up), which other
 * processes on a busy machine barely move; the bound, 24x, leaves room for cache effects.
 */
class RedactorLinearTimeTest {

  private static final List<IntFunction<String>> ADVERSARIAL = List.of(
      n -> "a.".repeat(n / 2),            // an endless email local part, no @
      n -> "a@".repeat(n / 2),            // @ everywhere
      n -> "a.b@c.".repeat(n / 6),        // email starts that never end in a domain
      n -> "a@b.c-".repeat(n / 6),
      n -> "1 ".repeat(n / 2),            // card and phone starts
      n -> "1-".repeat(n / 2),
      n -> "DE89 ".repeat(n / 5),         // IBAN groups forever
      n -> "1.".repeat(n / 2),            // IP-address-like dots
      n -> "sk-".repeat(n / 3),
      n -> "x".repeat(n));

  @Test
  void categoriesAndMaskGrowLinearlyOnAdversarialText() {
    int n = 50_000;
    for (int kind = 0; kind < ADVERSARIAL.size(); kind++) {
      String small = ADVERSARIAL.get(kind).apply(n);
      String large = ADVERSARIAL.get(kind).apply(8 * n);
      best(() -> new ContentRedactor(false, io.kvscope.index.store.Redaction.ephemeral()).show(small)); // warm-up: compile before measuring
      long tSmall = best(() -> new ContentRedactor(false, io.kvscope.index.store.Redaction.ephemeral()).show(small));
      long tLarge = best(() -> new ContentRedactor(false, io.kvscope.index.store.Redaction.ephemeral()).show(large));
      double ratio = (double) tLarge / Math.max(tSmall, 1_000_000);
      assertThat(ratio).as("kind %d: %d ms for %d chars, %d ms for 8x", kind, tSmall / 1_000_000, small.length(),
          tLarge / 1_000_000).isLessThan(24.0);
    }
  }

  private static long best(Runnable work) {
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    long best = Long.MAX_VALUE;
    for (int run = 0; run < 5; run++) {
      long start = cpu.getCurrentThreadCpuTime();
      work.run();
      best = Math.min(best, cpu.getCurrentThreadCpuTime() - start);
    }
    return best;
  }
}

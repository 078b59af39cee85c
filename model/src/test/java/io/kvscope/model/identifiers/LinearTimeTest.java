package io.kvscope.model.identifiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Identifier and canary matching stays linear in the text on inputs built to make regular
 * expressions and bookkeeping blow up: the work for 4x the text must grow about 4x, not 16x.
 * Timing is this thread's CPU time (other processes on a busy machine barely move it), the best of
 * several runs after a warm-up; the bound (10x) leaves room for cache effects while any quadratic
 * step (16x) fails it.
 */
class LinearTimeTest {

  private final IdentifierExtractor extractor = new IdentifierExtractor(List.of("KVCANARY-", "CANARY-CANARY-CANARY-X"));

  /** Texts of about {@code n} chars of each pathological kind. */
  private static final List<IntFunction<String>> ADVERSARIAL = List.of(
      n -> repeat(n, i -> "u" + i + "@mail" + i + ".example.com "),                        // distinct emails
      n -> repeat(n, i -> String.format("%08x-0000-4000-8000-%012x ", i, i)),               // distinct UUIDs
      n -> repeat(n, i -> "sk-" + Long.toHexString(0x1000000000000000L + i) + " "),          // distinct keys
      n -> repeat(n, i -> "+1 415 " + (1000000 + i) + " "),                                  // distinct phone numbers
      n -> "a.".repeat(n / 2),                                                               // email-like, no @
      n -> "a@".repeat(n / 2),                                                               // many @ and nothing else
      n -> "a.b@c.".repeat(n / 6),                                                           // overlapping email starts
      n -> "1".repeat(n),                                                                    // one huge digit run
      n -> "1 ".repeat(n / 2),                                                               // many phone-ish starts
      n -> "DE89 ".repeat(n / 5),                                                            // IBAN-ish groups forever
      n -> "KVCANARY-".repeat(n / 9),                                                        // canary prefixes, no body
      n -> "CANARY-".repeat(n / 7),                                                          // a prefix that almost matches
      n -> "acct ".repeat(n / 5));                                                           // account keywords

  @Test
  void extractionGrowsLinearlyOnAdversarialText() {
    int n = 150_000;
    for (int kind = 0; kind < ADVERSARIAL.size(); kind++) {
      String small = ADVERSARIAL.get(kind).apply(n);
      String large = ADVERSARIAL.get(kind).apply(4 * n);
      bestNanos(() -> extractor.extract(small)); // warm-up: compile before measuring
      long tSmall = bestNanos(() -> extractor.extract(small));
      long tLarge = bestNanos(() -> extractor.extract(large));
      double ratio = (double) tLarge / Math.max(tSmall, 25_000_000); // below 25 ms, a busy machine makes timing noise
      assertThat(ratio).as("kind %d: %d ms for %d chars, %d ms for 4x", kind, tSmall / 1_000_000, small.length(),
          tLarge / 1_000_000).isLessThan(10.0);
      assertThat(tLarge / 1_000_000).as("kind %d: 800k chars", kind).isLessThan(5_000);
    }
  }

  private static long bestNanos(Supplier<?> work) {
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    long best = Long.MAX_VALUE;
    for (int run = 0; run < 5; run++) {
      long start = cpu.getCurrentThreadCpuTime();
      work.get();
      best = Math.min(best, cpu.getCurrentThreadCpuTime() - start);
    }
    return best;
  }

  private static String repeat(int chars, IntFunction<String> piece) {
    StringBuilder out = new StringBuilder(chars + 64);
    for (int i = 0; out.length() < chars; i++) {
      out.append(piece.apply(i));
    }
    return out.toString();
  }
}

package io.kvscope.samples.sim;

import io.kvscope.samples.random.Rng;
import java.util.Arrays;

/**
 * How often each shared question is asked: a Zipf law over the popularity order, so a few
 * questions are asked by many tenants and a long tail once or twice.
 */
final class Popularity {

  private static final double EXPONENT = 0.9;

  private final double[] cumulative;

  Popularity(int questions) {
    cumulative = new double[questions];
    double total = 0;
    for (int i = 0; i < questions; i++) {
      total += 1 / StrictMath.pow(i + 1, EXPONENT);
      cumulative[i] = total;
    }
  }

  /** A question index, the most popular (0) most often. */
  int next(Rng rng) {
    double x = rng.nextDouble() * cumulative[cumulative.length - 1];
    int i = Arrays.binarySearch(cumulative, x);
    return Math.min(cumulative.length - 1, i >= 0 ? i + 1 : -i - 1);
  }
}

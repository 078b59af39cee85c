package io.kvscope.samples.random;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RngTest {

  @Test
  void sameSeedSameStreamAndDerivedStreamsAreIndependentOfCallOrder() {
    Rng a = new Rng(42);
    Rng b = new Rng(42);
    for (int i = 0; i < 100; i++) {
      assertThat(a.nextLong()).isEqualTo(b.nextLong());
    }
    long x = Rng.derive(42, 1, 2).nextLong();
    new Rng(42).nextLong();
    assertThat(Rng.derive(42, 1, 2).nextLong()).isEqualTo(x);
    assertThat(Rng.derive(42, 2, 1).nextLong()).isNotEqualTo(x);
  }

  @Test
  void boundedDrawsStayInRangeAndCoverIt() {
    Rng r = new Rng(7);
    int[] counts = new int[5];
    for (int i = 0; i < 5_000; i++) {
      counts[r.nextInt(5)]++;
    }
    for (int c : counts) {
      assertThat(c).isBetween(850, 1150);
    }
    assertThat(r.weighted(new double[] {0, 0, 1})).isEqualTo(2);
    assertThat(r.uuid()).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  }
}

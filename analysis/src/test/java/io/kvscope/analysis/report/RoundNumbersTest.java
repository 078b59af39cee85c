package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Chart scales: the smallest of 1, 2, 5 times a power of ten at or above the figure. */
class RoundNumbersTest {

  @Test
  void aRoundNumberIsItsOwnScale() {
    assertThat(RoundNumbers.atLeast(1)).isEqualTo(1);
    assertThat(RoundNumbers.atLeast(2)).isEqualTo(2);
    assertThat(RoundNumbers.atLeast(5)).isEqualTo(5);
    assertThat(RoundNumbers.atLeast(50)).isEqualTo(50);
    assertThat(RoundNumbers.atLeast(2_000_000)).isEqualTo(2_000_000);
  }

  @Test
  void anyOtherFigureGoesUpToTheNextOneTwoOrFive() {
    assertThat(RoundNumbers.atLeast(3)).isEqualTo(5);
    assertThat(RoundNumbers.atLeast(6)).isEqualTo(10);
    assertThat(RoundNumbers.atLeast(11)).isEqualTo(20);
    assertThat(RoundNumbers.atLeast(21)).isEqualTo(50);
    assertThat(RoundNumbers.atLeast(51)).isEqualTo(100);
    assertThat(RoundNumbers.atLeast(999)).isEqualTo(1_000);
    assertThat(RoundNumbers.atLeast(1_001)).isEqualTo(2_000);
    assertThat(RoundNumbers.atLeast(12_345_678)).isEqualTo(20_000_000);
  }

  @Test
  void zeroAndNegativeFiguresGiveOne() {
    assertThat(RoundNumbers.atLeast(0)).isEqualTo(1);
    assertThat(RoundNumbers.atLeast(-1)).isEqualTo(1);
    assertThat(RoundNumbers.atLeast(-1_000)).isEqualTo(1);
  }
}

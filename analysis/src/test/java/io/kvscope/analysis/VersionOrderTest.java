package io.kvscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VersionOrderTest {

  @Test
  void ordersReleasesNumericallyWithPreReleasesBeforeAndPostReleasesAfter() {
    assertThat(VersionOrder.atLeast("0.5.9", "0.5.22")).isFalse();
    assertThat(VersionOrder.atLeast("0.5.22", "0.5.22")).isTrue();
    assertThat(VersionOrder.atLeast("v0.5.22.post1", "0.5.22")).isTrue();
    assertThat(VersionOrder.atLeast("0.5.22rc1", "0.5.22")).isFalse();
    assertThat(VersionOrder.atLeast("0.6", "0.5.22")).isTrue();
    assertThat(VersionOrder.compare("1.0.0", "1")).isZero();
    assertThat(VersionOrder.atLeast(null, "0.5.22")).as("an unknown version is not known to be patched").isFalse();
  }

  @Test
  void partsOfAnyLengthCompareWithoutOverflow() {
    assertThat(VersionOrder.compare("99999999999999999999.1", "0.5.22")).isPositive();
    assertThat(VersionOrder.compare("0.99999999999999999999", "0.100000000000000000000")).isNegative();
    assertThat(VersionOrder.compare("0.0005.22", "0.5.22")).as("leading zeros").isZero();
    assertThat(VersionOrder.compare("0." + "9".repeat(5_000), "1")).isNegative();
  }

  @Test
  void aTextThatIsNoReleaseIsNeverPatched() {
    for (String text : new String[] {"0.5.x", "latest", "", "99999999999999999999.1\u001b[2J", "9".repeat(300)}) {
      assertThat(VersionOrder.atLeast(text, "0.5.22")).as(text).isFalse();
    }
  }
}

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
}

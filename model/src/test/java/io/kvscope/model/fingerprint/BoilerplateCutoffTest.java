package io.kvscope.model.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BoilerplateCutoffTest {

  private static FrequencyHistogram shared(int... tenantFrequencies) {
    FrequencyHistogram histogram = BoilerplateCutoff.histogram();
    for (int tenants : tenantFrequencies) {
      histogram.onSharedTerm(tenants, tenants);
    }
    return histogram;
  }

  @Test
  void theCutoffIsTheTenantFrequencyBelowWhich99PercentFall() {
    int[] frequencies = new int[200];
    java.util.Arrays.fill(frequencies, 0, 190, 2);
    java.util.Arrays.fill(frequencies, 190, 198, 9); // the 198th of 200 (99%) has 9 tenants
    java.util.Arrays.fill(frequencies, 198, 200, 40);
    assertThat(BoilerplateCutoff.learn(shared(frequencies))).isEqualTo(9);
  }

  @Test
  void theCutoffNeverGoesBelowTheFloor() {
    assertThat(BoilerplateCutoff.learn(shared(2, 2, 3))).isEqualTo(BoilerplateCutoff.MIN_TENANTS);
    assertThat(BoilerplateCutoff.learn(shared())).isEqualTo(BoilerplateCutoff.MIN_TENANTS);
  }

  @Test
  void frequenciesBeyondTheTrackedOnesLandInTheOverflowBucket() {
    int[] frequencies = new int[10];
    java.util.Arrays.fill(frequencies, 500);
    assertThat(BoilerplateCutoff.learn(shared(frequencies))).isEqualTo(BoilerplateCutoff.TRACKED_TENANT_FREQUENCIES);
  }

  @Test
  void aHistogramRebuiltFromItsCountsIsTheSameHistogram() {
    int[] frequencies = new int[200];
    java.util.Arrays.fill(frequencies, 0, 150, 3);
    java.util.Arrays.fill(frequencies, 150, 199, 11);
    frequencies[199] = 90;
    FrequencyHistogram walked = shared(frequencies);

    FrequencyHistogram rebuilt = FrequencyHistogram.of(walked.counts(), walked.maxDocFrequency());

    assertThat(rebuilt.counts()).isEqualTo(walked.counts());
    assertThat(rebuilt.totalTerms()).isEqualTo(200);
    assertThat(rebuilt.maxDocFrequency()).isEqualTo(90);
    assertThat(BoilerplateCutoff.learn(rebuilt)).isEqualTo(BoilerplateCutoff.learn(walked)).isEqualTo(11);
    assertThat(rebuilt.termsAbove(11)).isEqualTo(1);
    assertThatThrownBy(() -> FrequencyHistogram.of(new long[] {1, -1, 0}, 2))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative count");
  }
}

package io.kvscope.model.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the joined engine facts let the logs show of a service, on plain values. */
class ObservationTest {

  @Test
  void servedNormallyOnlyWhenBothSidesLoggedTheRequestWithItsPrefilledLengthAndNoTimingAnomaly() {
    assertThat(Observation.of(6, true, true, true, true, false)).isEqualTo(Observation.SERVED_NORMALLY);
    assertThat(Observation.of(6, true, true, true, true, true)).isEqualTo(Observation.TIMING_ANOMALY);
    assertThat(Observation.of(6, true, true, true, false, false)).isEqualTo(Observation.INPUT_LENGTH_NOT_LOGGED);
    assertThat(Observation.of(3, true, true, false, true, false)).isEqualTo(Observation.DECODE_NOT_LOGGED);
    assertThat(Observation.of(3, true, false, true, true, false)).isEqualTo(Observation.PREFILL_NOT_LOGGED);
    assertThat(Observation.of(0, true, false, false, false, false)).isEqualTo(Observation.RID_NOT_JOINED);
    assertThat(Observation.of(0, false, false, false, false, false)).isEqualTo(Observation.NO_ENGINE_LOG);
  }

  @Test
  void aMechanismOfALeakIsNeverANormalService() {
    assertThat(Mechanism.normalService().servedNormally()).isTrue();
    assertThat(new Mechanism(false, java.util.List.of("KV checksum mismatch"), java.util.List.of(),
        Observation.SERVED_NORMALLY).servedNormally()).isFalse();
    assertThat(Mechanism.none().servedNormally()).isFalse();
  }
}

package io.kvscope.model.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServiceSignalsTest {

  private static ServiceSignals signals(boolean overLength, boolean underrun, int transferFailures, boolean timing,
      String window) {
    return new ServiceSignals(overLength, underrun, transferFailures, 0, 0, timing, window, Observation.SERVED_NORMALLY);
  }

  @Test
  void anOverLengthPromptAcceptedWasNeverPrefilledAndDecodedOverForeignKv() {
    Mechanism m = signals(true, false, 0, false, null).mechanism();

    assertThat(m.neverPrefilled()).isTrue();
    assertThat(m.decodedOverForeignKv()).isTrue();
    assertThat(m.foreignKv()).containsExactly("over-length prompt accepted");
  }

  @Test
  void aFailedTransferIsForeignKvButTheLogsStillShowThePromptPrefilled() {
    Mechanism m = signals(false, false, 2, false, null).mechanism();

    assertThat(m.neverPrefilled()).isFalse();
    assertThat(m.foreignKv()).containsExactly("KV transfer or bootstrap failure");
  }

  @Test
  void timingAndAVulnerableWindowSupportALeakWithoutShowingOne() {
    Mechanism m = signals(false, false, 0, true, "prefill-0").mechanism();

    assertThat(m.decodedOverForeignKv()).isFalse();
    assertThat(m.supporting()).containsExactly("time to first token far below the prompt's prefill time",
        "served inside a vulnerable window of prefill-0");
  }

  @Test
  void nothingSaidAndEverySideLoggedIsANormalService() {
    assertThat(signals(false, false, 0, false, null).mechanism().servedNormally()).isTrue();
  }

  @Test
  void aRequestTurnedAwayBeforeItsPrefillWroteNoKv() {
    assertThat(ServiceSignals.refusedBeforePrefill(true, false, 200)).as("engine rejection, no success").isTrue();
    assertThat(ServiceSignals.refusedBeforePrefill(true, true, 200)).as("rejected yet answered: the incident").isFalse();
    assertThat(ServiceSignals.refusedBeforePrefill(false, false, 400)).isTrue();
    assertThat(ServiceSignals.refusedBeforePrefill(false, false, 408)).as("a timeout can follow the prefill").isFalse();
    assertThat(ServiceSignals.refusedBeforePrefill(false, false, 499)).isFalse();
    assertThat(ServiceSignals.refusedBeforePrefill(false, false, 500)).isFalse();
    assertThat(ServiceSignals.refusedBeforePrefill(false, true, null)).isFalse();
  }
}

package io.kvscope.model.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** An index records its scheme as {@link FingerprintConfig#schemeId()}; reading it back gives k and T. */
class FingerprintConfigSchemeIdTest {

  @Test
  void theDefaultSchemeIdReadsBackAsKEightTSixteen() {
    assertThat(FingerprintConfig.ofSchemeId("kvscope-winnow/1 k=8 t=16")).contains(new FingerprintConfig(8, 16));
  }

  @Test
  void whateverSchemeIdWritesReadsBackAsTheSameConfig() {
    assertThat(FingerprintConfig.ofSchemeId(new FingerprintConfig(5, 40).schemeId())).contains(new FingerprintConfig(5, 40));
    assertThat(FingerprintConfig.ofSchemeId(new FingerprintConfig(4, 4).schemeId())).contains(new FingerprintConfig(4, 4));
  }

  @Test
  void anotherSchemeOrVersionIsNotRead() {
    assertThat(FingerprintConfig.ofSchemeId("kvscope-winnow/2 k=8 t=16")).isEmpty();
    assertThat(FingerprintConfig.ofSchemeId("minhash/1 k=8 t=16")).isEmpty();
    assertThat(FingerprintConfig.ofSchemeId("KVSCOPE-WINNOW/1 k=8 t=16")).isEmpty();
  }

  @Test
  void aMalformedIdIsNotRead() {
    assertThat(FingerprintConfig.ofSchemeId("")).isEmpty();
    assertThat(FingerprintConfig.ofSchemeId("kvscope-winnow/1 k=8")).isEmpty();
    assertThat(FingerprintConfig.ofSchemeId("kvscope-winnow/1 t=16 k=8")).isEmpty();
    assertThat(FingerprintConfig.ofSchemeId("kvscope-winnow/1 k=8 t=16 ")).isEmpty();
    assertThat(FingerprintConfig.ofSchemeId("kvscope-winnow/1 k=-8 t=16")).isEmpty();
    assertThat(FingerprintConfig.ofSchemeId("kvscope-winnow/1 k=eight t=16")).isEmpty();
    assertThat(FingerprintConfig.ofSchemeId("kvscope-winnow/1 k=8 t=99999")).isEmpty();
  }

  @Test
  void wellFormedButInvalidNumbersGiveEmptyNotAnException() {
    assertThat(FingerprintConfig.ofSchemeId("kvscope-winnow/1 k=8 t=7")).isEmpty(); // T below k
    assertThat(FingerprintConfig.ofSchemeId("kvscope-winnow/1 k=0 t=16")).isEmpty(); // k below 1
  }
}

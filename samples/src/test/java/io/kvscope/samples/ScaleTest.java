package io.kvscope.samples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ScaleTest {

  @Test
  void parsesNamedScalesAndMultipliers() {
    assertThat(Scale.parse("small")).isEqualTo(Scale.SMALL);
    assertThat(Scale.parse(" Large ")).isEqualTo(Scale.LARGE);
    assertThat(Scale.parse("3x").multiplier()).isEqualTo(3.0);
    assertThat(Scale.parse("3x").name()).isEqualTo("3x");
    assertThat(Scale.parse("0.5x").multiplier()).isEqualTo(0.5);
    assertThat(Scale.parse("1000x").tenants()).isEqualTo(200);
    assertThatThrownBy(() -> Scale.parse("huge")).hasMessageContaining("small, medium, large or <N>x");
    assertThatThrownBy(() -> Scale.parse("0x")).isInstanceOf(IllegalArgumentException.class);
  }
}

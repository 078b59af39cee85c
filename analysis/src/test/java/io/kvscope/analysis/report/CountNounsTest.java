package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CountNounsTest {

  @Test
  void exactlyOneIsSingularAndEveryOtherCountOrRangePlural() {
    assertThat(CountNouns.of(1, 1, "response")).isEqualTo("response");
    assertThat(CountNouns.of(1, 0, "response")).isEqualTo("response"); // no candidates beyond the sure one
    assertThat(CountNouns.of(0, 1, "response")).isEqualTo("responses"); // "0–1 responses"
    assertThat(CountNouns.of(1, 3, "request")).isEqualTo("requests");
    assertThat(CountNouns.of(0, 0, "token")).isEqualTo("tokens");
    assertThat(CountNouns.of(2, 2, "token")).isEqualTo("tokens");
  }
}

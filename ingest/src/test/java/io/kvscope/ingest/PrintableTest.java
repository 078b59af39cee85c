package io.kvscope.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrintableTest {

  @Test
  void cleanValuesAreKeptExactly() {
    for (String clean : new String[] {"org-acme", "caf\u00e9", "\u4e2d\u6587", "a\\b", "C:\\logs\\x1b", "\ud83d\ude00"}) {
      assertThat(Printable.text(clean)).isSameAs(clean);
      assertThat(Printable.isClean(clean)).isTrue();
    }
    assertThat(Printable.text((String) null)).isEqualTo("-");
  }

  @Test
  void everyControlAndReorderingCharacterBecomesVisible() {
    assertThat(Printable.text("a\nb\rc\td")).isEqualTo("a\\nb\\rc\\td");
    assertThat(Printable.text("\u001b]52;c;SGVsbG8=\u0007")).isEqualTo("\\x1b]52;c;SGVsbG8=\\x07");
    assertThat(Printable.text("\u0000\u007f\u0085\u009b")).isEqualTo("\\x00\\x7f\\x85\\x9b");
    assertThat(Printable.text("x\u202eexe.txt")).isEqualTo("x\\u202eexe.txt");
    assertThat(Printable.text("\u2028\u2029\u2066\u2069\u200e\u200f\u061c\ufeff"))
        .isEqualTo("\\u2028\\u2029\\u2066\\u2069\\u200e\\u200f\\u061c\\ufeff");
    for (int c = 0; c < 0x20; c++) {
      assertThat(Printable.text(String.valueOf((char) c))).as("U+%04X", c).doesNotContain(String.valueOf((char) c));
    }
  }
}

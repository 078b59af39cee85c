package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CsvCellTest {

  @Test
  void quotesByRfc4180() {
    assertThat(CsvCell.of("plain")).isEqualTo("plain");
    assertThat(CsvCell.of("a,b")).isEqualTo("\"a,b\"");
    assertThat(CsvCell.of("a;b")).isEqualTo("\"a;b\"");
    assertThat(CsvCell.of("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
    assertThat(CsvCell.of("")).isEmpty();
    assertThat(CsvCell.of(null)).isEmpty();
  }

  @Test
  void everyFormulaStartOfTheOwaspRuleIsDefused() {
    for (String formula : List.of("=HYPERLINK(\"https://evil.example\",\"x\")", "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
        "@SUM(1+1)*cmd|' /C calc'!A0", "\uff1d1+1", "\uff0b1", "\uff0d1", "\uff20SUM(A1)")) {
      String cell = CsvCell.defused(formula);
      assertThat(cell).as(formula).startsWith("'");
    }
    // A leading tab or carriage return is written as its escape: no longer a formula start.
    assertThat(CsvCell.defused("\t=1+1")).isEqualTo("\\t=1+1");
    assertThat(CsvCell.defused("\r=1+1")).isEqualTo("\\r=1+1");
    assertThat(CsvCell.of("=1+1")).isEqualTo("'=1+1");
    assertThat(CsvCell.of("=A1,B1")).isEqualTo("\"'=A1,B1\"");
    assertThat(CsvCell.of("org-acme")).isEqualTo("org-acme"); // a dash inside is no formula
  }

  @Test
  void eachPartOfAListIsDefusedOnItsOwn() {
    assertThat(CsvCell.list(List.of("org-a", "=1+1", "@x"))).isEqualTo("\"org-a;'=1+1;'@x\"");
    assertThat(CsvCell.list(List.of())).isEmpty();
  }

  @Test
  void controlCharactersBecomeVisibleEscapes() {
    assertThat(CsvCell.of("two\nlines")).isEqualTo("two\\nlines");
    assertThat(CsvCell.of("a\u001b]52;c;SGVsbG8=\u0007b")).isEqualTo("\"a\\x1b]52;c;SGVsbG8=\\x07b\"");
  }
}

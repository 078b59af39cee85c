package io.kvscope.samples.text;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.samples.testing.TokenCount;
import org.junit.jupiter.api.Test;

/** Text no template wrote is cut into tokens that give it back exactly, as many as a tokenizer would. */
class TokenTextOfTest {

  @Test
  void keepsTheTextExactlyAndCountsTokensByTheDocumentedRule() {
    cutExactlyByTheDocumentedRule(
        "  Here is a function:\n\n```python\ndef add(a, b):\n    return a + b\n```\nSee https://example.org/a/very/long/path ok.\n\n");
  }

  @Test
  void textWithoutSpacesIsATokenACharacterAndStaysExact() {
    TokenText t = cutExactlyByTheDocumentedRule("高锰酸钾（KMnO4）和亚硫酸氢钠反应。Milvus是一个开源的向量数据库，\n\nカタカナとひらがな, ok. ภาษาไทย");
    assertThat(t.token(0)).isEqualTo("高");
    assertThat(t.token(5)).isEqualTo("KMnO4");
    assertThat(t.isWord(4)).isFalse(); // the full-width parenthesis
    assertThat(t.token(t.tokenCount() - 1)).isEqualTo("ย"); // Thai too: its last character
  }

  @Test
  void eachCharacterOfTextWithoutSpacesIsAWord() {
    assertThat(Words.count("亚硫酸氢钠")).isEqualTo(5);
    assertThat(Words.count("Milvus是一个开源的向量数据库。")).isEqualTo(1 + 11);
    assertThat(Words.count("한국어 문장은 띄어 씁니다")).isEqualTo(4); // Korean is written with spaces
  }

  @Test
  void wordsAreLetterAndDigitRunsJoinedByAddressMarks() {
    assertThat(Words.count("Mail jane.doe@example.com, call +44 20 7946 0958; version 0.5.22 isn't out.")).isEqualTo(11);
    assertThat(Words.count("for (int i = 0; i < n; i++) {")).isEqualTo(7);
  }

  /** The tokens give the text back exactly, as many as the independent count says. */
  private static TokenText cutExactlyByTheDocumentedRule(String text) {
    TokenText t = TokenText.of(text);
    StringBuilder back = new StringBuilder();
    for (int i = 0; i < t.tokenCount(); i++) {
      back.append(text, t.tokenStart(i), t.spanEnd(i + 1));
    }
    assertThat(back.toString()).isEqualTo(text);
    assertThat(t.tokenCount()).isEqualTo(TokenCount.count(text));
    return t;
  }
}

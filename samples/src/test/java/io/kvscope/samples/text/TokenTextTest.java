package io.kvscope.samples.text;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.samples.random.Rng;
import io.kvscope.samples.testing.TokenCount;
import org.junit.jupiter.api.Test;

class TokenTextTest {

  @Test
  void tokensCarryTheirLeadingSpaceAndSpansAreVerbatimSubstrings() {
    TokenText t = TokenText.builder().word("Send").word("the").word("invoice").punct(".").paragraph()
        .word("Thanks").punct("!").build();
    assertThat(t.text()).isEqualTo("Send the invoice.\n\nThanks!");
    assertThat(t.tokenCount()).isEqualTo(7);
    assertThat(t.slice(1, 4)).isEqualTo("the invoice.");
    assertThat(t.token(5)).isEqualTo("Thanks");
    assertThat(t.isWord(3)).isFalse();
    assertThat(t.isWord(4)).isFalse();
    assertThat(TokenCount.count(t.text())).isEqualTo(t.tokenCount());
  }

  @Test
  void appendRangeCopiesTokensAndReportsWhereTheyLanded() {
    TokenText src = TokenText.builder().word("a").word("quick").word("brown").word("fox").build();
    TokenText.Builder b = TokenText.builder().word("Note").punct(":");
    int at = b.appendRange(src, 1, 3);
    TokenText out = b.punct(".").build();
    assertThat(out.text()).isEqualTo("Note: quick brown.");
    assertThat(out.text().substring(at, at + "quick brown".length())).isEqualTo(src.slice(1, 3));
    assertThat(out.tokenCount()).isEqualTo(5);
  }

  @Test
  void generatedProseCountsLikeTheDocumentedTokenizer() {
    Rng rng = new Rng(3);
    TenantVoices.Made made = TenantVoices.make(0, 5, rng);
    Composed.Builder cb = new Composed.Builder(400);
    Voice voice = Voice.of(made.voice(), new RequestIds(made.voice(), 1, new Rng(4)), cb);
    Writing.privateProse(cb, voice, rng, 400, true);
    Composed c = cb.build();
    assertThat(TokenCount.count(c.text().text())).isEqualTo(c.text().tokenCount());
    assertThat(c.idTokens()).isNotEmpty();
    for (int i = 0; i < c.idTokens().length; i++) {
      assertThat(c.text().token(c.idTokens()[i])).isEqualTo(c.idValues()[i]);
    }
    assertThat(c.privateRanges()).containsExactly(0, c.text().tokenCount());
  }
}

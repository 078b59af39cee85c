package io.kvscope.model.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WordTokenizerTest {

  private static List<String> folded(TokenizedText t) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < t.size(); i++) {
      out.add(t.folded(i));
    }
    return out;
  }

  private static List<String> originals(TokenizedText t) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < t.size(); i++) {
      out.add(t.original(i));
    }
    return out;
  }

  @Test
  void wordsAreLowerCasedAndPunctuationSeparates() {
    TokenizedText t =
        WordTokenizer.tokenize("Hello, World! Mail john.doe@example.com key sk-proj-AbC123 ends.");

    assertThat(folded(t))
        .containsExactly(
            "hello", "world", "mail", "john.doe@example.com", "key", "sk-proj-abc123", "ends");
    assertThat(originals(t))
        .containsExactly(
            "Hello", "World", "Mail", "john.doe@example.com", "key", "sk-proj-AbC123", "ends");
    assertThat(t.start(0)).isZero();
    assertThat(t.end(0)).isEqualTo(5);
    assertThat(t.start(1)).isEqualTo(7);
  }

  @Test
  void identifiersStayWholeButTrailingAndDoubledPunctuationSplits() {
    TokenizedText t =
        WordTokenizer.tokenize(
            "v0.5.22 12,345.67 a,b don't don’t 10:30 https://x.org/a_b end. (note) -dash- @at --x");

    assertThat(folded(t))
        .containsExactly(
            "v0.5.22", "12,345.67", "a", "b", "don't", "don't", "10:30", "https", "x.org/a_b",
            "end", "note", "dash", "at", "x");
  }

  @Test
  void unicodeLettersFoldAndCombiningMarksStayInTheirWord() {
    TokenizedText t = WordTokenizer.tokenize("Straße ÉCOLE Naïve E\u0301COLE");

    assertThat(folded(t)).containsExactly("straße", "école", "naïve", "e\u0301cole");
  }

  @Test
  void unspacedScriptsGiveOneTokenPerCharacterWithItsMarks() {
    // Thai: sa, wo wan + mai han-akat (mark), sa, do dek + sara ii (mark)
    TokenizedText t = WordTokenizer.tokenize("東京都に住む。Tokyo สวัสดี");

    assertThat(folded(t))
        .containsExactly(
            "東", "京", "都", "に", "住", "む", "tokyo", "ส", "ว\u0e31", "ส", "ด\u0e35");
  }

  @Test
  void supplementaryCharactersKeepExactUtf16Offsets() {
    // Deseret capital letters (outside the BMP) have lower-case forms; the emoji separates.
    String text = "a😀b \uD801\uDC00\uD801\uDC01 😀x";
    TokenizedText t = WordTokenizer.tokenize(text);

    assertThat(originals(t)).containsExactly("a", "b", "\uD801\uDC00\uD801\uDC01", "x");
    assertThat(t.folded(2)).isEqualTo("\uD801\uDC28\uD801\uDC29");
    assertThat(t.start(1)).isEqualTo(3);
    assertThat(t.start(2)).isEqualTo(5);
    assertThat(t.end(2)).isEqualTo(9);
    assertThat(t.start(3)).isEqualTo(text.length() - 1);
  }

  @Test
  void foldingIgnoresTheDefaultLocale() {
    Locale saved = Locale.getDefault();
    try {
      Locale.setDefault(Locale.forLanguageTag("tr-TR"));
      TokenizedText t = WordTokenizer.tokenize("TITLE INFO");
      assertThat(folded(t)).containsExactly("title", "info");
      assertThat(t.hash(0)).isEqualTo(WordTokenizer.tokenize("title").hash(0));
    } finally {
      Locale.setDefault(saved);
    }
  }

  @Test
  void tokenHashIsFnv1aWithMurmurFinaliserAndCaseInsensitive() {
    // Published FNV-1a 64-bit test vectors; for ASCII, hashing code points equals hashing bytes.
    assertThat(WordTokenizer.tokenize("a").hash(0)).isEqualTo(murmurFmix64(0xaf63dc4c8601ec8cL));
    assertThat(WordTokenizer.tokenize("foobar").hash(0))
        .isEqualTo(murmurFmix64(0x85944171f73967e8L));
    assertThat(WordTokenizer.tokenize("FooBar").hash(0))
        .isEqualTo(WordTokenizer.tokenize("foobar").hash(0));
    assertThat(WordTokenizer.tokenize("foobas").hash(0))
        .isNotEqualTo(WordTokenizer.tokenize("foobar").hash(0));
  }

  /** MurmurHash3 fmix64, written out from the reference to pin the scheme. */
  private static long murmurFmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }

  @Test
  void everyTokenMapsBackToTheOriginalTextAndRetokenizesToItself() {
    String alphabet = "abcXYZ019 .,;:@-_'/+!?\n\té漢字ひらがなกั😀\uD801\uDC00ß";
    Random random = new Random(7);
    for (int trial = 0; trial < 500; trial++) {
      StringBuilder sb = new StringBuilder();
      int length = random.nextInt(200);
      for (int i = 0; i < length; ) {
        int cp = alphabet.codePointAt(random.nextInt(alphabet.length()));
        if (Character.isLowSurrogate((char) cp)) {
          continue;
        }
        sb.appendCodePoint(cp);
        i++;
      }
      String text = sb.toString();
      TokenizedText t = WordTokenizer.tokenize(text);
      int previousEnd = 0;
      for (int i = 0; i < t.size(); i++) {
        assertThat(t.start(i)).isGreaterThanOrEqualTo(previousEnd);
        assertThat(t.end(i)).isGreaterThan(t.start(i));
        previousEnd = t.end(i);
        String token = text.substring(t.start(i), t.end(i));
        assertThat(token).isEqualTo(t.original(i));
        TokenizedText again = WordTokenizer.tokenize(token);
        assertThat(again.size()).as("token %s of trial %s", i, trial).isEqualTo(1);
        assertThat(again.hash(0)).isEqualTo(t.hash(i));
        assertThat(TokenizedText.sameToken(again, 0, t, i)).isTrue();
      }
    }
  }

  @Test
  void emptyAndNullTextHaveNoTokens() {
    assertThat(WordTokenizer.tokenize("").size()).isZero();
    assertThat(WordTokenizer.tokenize(null).size()).isZero();
    assertThat(WordTokenizer.tokenize(" ,.;!😀 ").size()).isZero();
  }
}

package io.kvscope.model.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The index's fingerprint terms, computed without the tokens' offsets and with the k-gram hashes
 * written over the token hashes, are the distinct winnowed values of the k-grams as the scheme
 * defines them: each k-gram's polynomial over its token hashes, finalised, computed here from
 * scratch for every k-gram.
 */
class DistinctHashesTest {

  private static final String[] PIECES = {
    "the", "Account", "sk-live_4f9a8b7c", "ana.lopez@example.com", "12,345.67", "don't", "10:30", "x",
    "日本語のテキスト", "e\u0301te\u0301", "😀", "İstanbul", "ΣΊΣΥΦΟΣ", "٠١٢٣", "a", "b", "-", ".", "\n", "  ",
    "naïve café", "ſtraße", "\u200b", "a.b", "://", "’s"
  };

  @Test
  void areTheDistinctWinnowedKGramsOfTheScheme() {
    Random random = new Random(11);
    for (FingerprintConfig config : new FingerprintConfig[] {FingerprintConfig.defaults(), new FingerprintConfig(1, 1),
        new FingerprintConfig(3, 5), new FingerprintConfig(8, 40)}) {
      Fingerprinter fingerprinter = new Fingerprinter(config);
      for (int round = 0; round < 1_500; round++) {
        String text = text(random, random.nextInt(round % 10 == 0 ? 4_000 : 60));
        assertThat(fingerprinter.distinctHashes(text)).as("%s, round %d: %s", config, round, text)
            .isEqualTo(fromScratch(text, config));
      }
    }
  }

  @Test
  void holdMoreTokensThanTheTokenizerFirstMakesRoomFor() {
    // One-char words: a token every second char, three times the first capacity (a sixth of the chars).
    String text = "a b c d e f g h i j k l m n o p q r s t u v w x y z ".repeat(2_000);
    Fingerprinter fingerprinter = new Fingerprinter(FingerprintConfig.defaults());
    assertThat(fingerprinter.distinctHashes(text)).isEqualTo(fromScratch(text, FingerprintConfig.defaults())).isNotEmpty();
  }

  @Test
  void ofNoTextOrTooFewWordsAreNone() {
    Fingerprinter fingerprinter = new Fingerprinter(FingerprintConfig.defaults());
    assertThat(fingerprinter.distinctHashes(null)).isEmpty();
    assertThat(fingerprinter.distinctHashes("")).isEmpty();
    assertThat(fingerprinter.distinctHashes("one two three four five six seven eight nine ten")).isEmpty();
  }

  private static String text(Random random, int pieces) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < pieces; i++) {
      text.append(PIECES[random.nextInt(PIECES.length)]).append(random.nextInt(4) == 0 ? "" : " ");
    }
    return text.toString();
  }

  private static long[] fromScratch(String text, FingerprintConfig config) {
    TokenizedText tokens = WordTokenizer.tokenize(text);
    int k = config.k();
    long[] kgrams = new long[Math.max(0, tokens.size() - k + 1)];
    for (int i = 0; i < kgrams.length; i++) {
      long value = 0;
      for (int j = 0; j < k; j++) {
        value = value * HashMixing.KGRAM_BASE + tokens.hash(i + j);
      }
      kgrams[i] = HashMixing.fmix64(value);
    }
    Fingerprints selected = Winnower.winnow(kgrams, config.window());
    long[] values = new long[selected.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = selected.hash(i);
    }
    return Arrays.stream(values).boxed().distinct().sorted(Long::compareUnsigned).mapToLong(Long::longValue).toArray();
  }
}

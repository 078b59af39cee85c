package io.kvscope.model.fingerprint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The winnowing guarantee, end to end from text: shared runs of T tokens share a fingerprint. */
class FingerprintGuaranteeTest {

  private static final int[][] CONFIGS = {{8, 20}, {5, 12}, {1, 5}, {4, 4}, {8, 9}};

  @Test
  void everyPlantedRunOfAtLeastTTokensSharesASelectedFingerprint() {
    Random random = new Random(20260827);
    for (int trial = 0; trial < 3000; trial++) {
      int[] kt = CONFIGS[trial % CONFIGS.length];
      FingerprintConfig config = new FingerprintConfig(kt[0], kt[1]);
      Fingerprinter fingerprinter = new Fingerprinter(config);
      // A tiny vocabulary in a third of the trials: repeated k-grams and many hash ties.
      List<String> vocabulary = vocabulary(random, trial % 3 == 0 ? 3 : 5000);
      int runLength = config.threshold() + random.nextInt(40);
      List<String> run = pick(random, vocabulary, runLength);
      int beforeA = random.nextInt(120);
      int beforeB = random.nextInt(120);
      String a = text(random, vocabulary, beforeA, run, random.nextInt(120));
      String b = text(random, vocabulary, beforeB, run, random.nextInt(120));

      Fingerprints fa = fingerprinter.fingerprint(a);
      Fingerprints fb = fingerprinter.fingerprint(b);

      // k-grams lying wholly inside the planted run start in [before, before + run - k].
      Set<Long> insideA = hashesStartingIn(fa, beforeA, beforeA + runLength - config.k());
      Set<Long> insideB = hashesStartingIn(fb, beforeB, beforeB + runLength - config.k());
      insideA.retainAll(insideB);
      assertThat(insideA).as("trial %s, k=%s T=%s run=%s", trial, kt[0], kt[1], runLength)
          .isNotEmpty();
    }
  }

  @Test
  void textsShorterThanTGiveNoFingerprintsAndTTokensGiveOne() {
    FingerprintConfig config = FingerprintConfig.defaults();
    Fingerprinter fingerprinter = new Fingerprinter(config);
    Words words = new Words(3);

    assertThat(fingerprinter.fingerprint(Words.join(words.words(config.threshold() - 1))).size())
        .isZero();
    assertThat(fingerprinter.fingerprint(Words.join(words.words(config.threshold()))).size())
        .isEqualTo(1);
  }

  @Test
  void densityIsAboutTwoOverWindowPlusOne() {
    FingerprintConfig config = FingerprintConfig.defaults();
    String text = Words.join(new Words(5).words(200_000));

    Fingerprints fp = new Fingerprinter(config).fingerprint(text);

    double density = fp.size() / (double) (200_000 - config.k() + 1);
    double expected = 2.0 / (config.window() + 1);
    assertThat(density).isBetween(expected * 0.9, expected * 1.1);
  }

  @Test
  void configValidatesAndNamesItsScheme() {
    assertThat(FingerprintConfig.defaults().window()).isEqualTo(9);
    assertThat(FingerprintConfig.defaults().schemeId()).isEqualTo("kvscope-winnow/1 k=8 t=16");
    assertThat(FingerprintConfig.defaults().withThreshold(30).window()).isEqualTo(23);
    assertThatThrownBy(() -> new FingerprintConfig(8, 7))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new FingerprintConfig(0, 7))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static Set<Long> hashesStartingIn(Fingerprints fp, int from, int to) {
    Set<Long> out = new HashSet<>();
    for (int i = 0; i < fp.size(); i++) {
      if (fp.position(i) >= from && fp.position(i) <= to) {
        out.add(fp.hash(i));
      }
    }
    return out;
  }

  private static List<String> vocabulary(Random random, int size) {
    Words words = new Words(random.nextLong());
    Set<String> distinct = new HashSet<>();
    while (distinct.size() < size) {
      distinct.add(words.word());
    }
    return new ArrayList<>(distinct);
  }

  private static List<String> pick(Random random, List<String> vocabulary, int n) {
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(vocabulary.get(random.nextInt(vocabulary.size())));
    }
    return out;
  }

  private static String text(
      Random random, List<String> vocabulary, int before, List<String> run, int after) {
    List<String> all = new ArrayList<>(pick(random, vocabulary, before));
    // Vary case and separators: the guarantee is about tokens, not bytes.
    for (String w : run) {
      all.add(random.nextInt(4) == 0 ? w.toUpperCase(java.util.Locale.ROOT) : w);
    }
    all.addAll(pick(random, vocabulary, after));
    StringBuilder sb = new StringBuilder();
    for (String w : all) {
      if (sb.length() > 0) {
        sb.append(random.nextInt(5) == 0 ? ", " : " ");
      }
      sb.append(w);
    }
    return sb.toString();
  }
}

package io.kvscope.model.fingerprint;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Seeded random word material for tests: words from a huge vocabulary rarely repeat by chance. */
public final class Words {

  private final Random random;

  public Words(long seed) {
    this.random = new Random(seed);
  }

  public Random random() {
    return random;
  }

  public String word() {
    int length = 4 + random.nextInt(6);
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      sb.append((char) ('a' + random.nextInt(26)));
    }
    return sb.toString();
  }

  public List<String> words(int n) {
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(word());
    }
    return out;
  }

  public static String join(List<String> words) {
    return String.join(" ", words);
  }

  /** Concatenates word lists into one list. */
  @SafeVarargs
  public static List<String> concat(List<String>... parts) {
    List<String> out = new ArrayList<>();
    for (List<String> part : parts) {
      out.addAll(part);
    }
    return out;
  }
}

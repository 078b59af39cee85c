package io.kvscope.model.fingerprint;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A rough throughput measurement of tokenize + k-gram hash + winnow, not a test: run it by hand
 * (java -cp index/target/classes:index/target/test-classes
 * io.kvscope.index.fingerprint.FingerprintThroughputMain). JMH benchmarks belong in the bench
 * module; the cores are Lucene-free so they can be measured there directly.
 */
public final class FingerprintThroughputMain {

  private FingerprintThroughputMain() {}

  public static void main(String[] args) {
    int megabytes = args.length > 0 ? Integer.parseInt(args[0]) : 32;
    measure("ascii words", asciiText(megabytes));
    measure("mixed unicode", unicodeText(megabytes));
  }

  private static void measure(String label, String text) {
    FingerprintConfig config = FingerprintConfig.defaults();
    double mb = text.getBytes(StandardCharsets.UTF_8).length / 1e6;
    long sink = 0;
    for (int round = 0; round < 5; round++) {
      long t0 = System.nanoTime();
      TokenizedText tokens = WordTokenizer.tokenize(text);
      long t1 = System.nanoTime();
      long[] grams = KGramHasher.hash(tokens.tokenHashes(), config.k());
      long t2 = System.nanoTime();
      Fingerprints fp = Winnower.winnow(grams, config.window());
      long t3 = System.nanoTime();
      sink += fp.size() + tokens.size();
      if (round >= 2) { // the first rounds warm up the JIT
        System.out.printf(Locale.ROOT,
            "%-14s %6.1f MB (UTF-8), %,d tokens: tokenize %6.1f MB/s, k-grams %6.1f MB/s,"
                + " winnow %6.1f MB/s, all three %6.1f MB/s, %,d fingerprints%n",
            label, mb, tokens.size(), mb / seconds(t1 - t0), mb / seconds(t2 - t1),
            mb / seconds(t3 - t2), mb / seconds(t3 - t0), fp.size());
      }
    }
    if (sink == 42) {
      System.out.println();
    }
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  private static String asciiText(int megabytes) {
    Words words = new Words(1);
    StringBuilder sb = new StringBuilder(megabytes << 20);
    while (sb.length() < megabytes << 20) {
      sb.append(words.word());
      sb.append(words.random().nextInt(12) == 0 ? ". " : " ");
    }
    return sb.toString();
  }

  private static String unicodeText(int megabytes) {
    String[] pieces = {"Überweisung", "für", "müller@example.de", "東京都に住む", "Ελληνικά",
        "русский", "sk-proj-AbC123", "12,345.67", "😀", "naïve", "สวัสดี", "the", "and"};
    Words words = new Words(2);
    StringBuilder sb = new StringBuilder(megabytes << 20);
    while (sb.length() < megabytes << 20) {
      sb.append(words.random().nextInt(3) == 0
          ? pieces[words.random().nextInt(pieces.length)] : words.word());
      sb.append(' ');
    }
    return sb.toString();
  }
}

package io.kvscope.bench;

import io.kvscope.model.fingerprint.FingerprintConfig;
import io.kvscope.model.fingerprint.KGramHasher;
import io.kvscope.model.fingerprint.WordTokenizer;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.litellm.LiteLlmIngestor;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The naive way to find cross-request overlap: every response against every earlier prompt, as
 * sets of k-gram hashes (the same tokenizer and k-grams kvscope uses, k = 8), counting shared
 * k-grams by probing the response's k-grams in each prompt's sorted set. It runs on growing
 * slices of the gateway log (the first 250, 500, 1000... requests) until one slice takes more than
 * a third of the time budget, and prints the time per pair so that the full set can be projected:
 * pairs grow with the square of the requests.
 *
 * <p>{@code java -cp 'bench/target/kvscope-bench.jar:bench/target/lib/*' io.kvscope.bench.NaiveOverlap [--budget-seconds S] [--max-records N] GATEWAY.jsonl...}
 */
public final class NaiveOverlap {

  private NaiveOverlap() {}

  /** Stops the parse once enough records are in. */
  private static final class Enough extends RuntimeException {
    Enough() {
      super(null, null, false, false);
    }
  }

  public static void main(String[] args) throws IOException {
    double budgetSeconds = 60;
    int maxRecords = 16_000;
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--budget-seconds" -> budgetSeconds = Double.parseDouble(args[++i]);
        case "--max-records" -> maxRecords = Integer.parseInt(args[++i]);
        default -> files.add(Path.of(args[i]));
      }
    }
    int k = FingerprintConfig.DEFAULT_K;
    long prepStart = System.nanoTime();
    List<long[]> prompts = new ArrayList<>();
    List<long[]> responses = new ArrayList<>();
    load(files, maxRecords, r -> {
      prompts.add(distinctKGrams(r.promptText(), k));
      responses.add(distinctKGrams(r.responseText(), k));
    });
    double prepSeconds = (System.nanoTime() - prepStart) / 1e9;

    StringBuilder points = new StringBuilder();
    double secondsPerPair = Double.NaN;
    for (int n = Math.min(250, prompts.size()); n >= 2; n = n == prompts.size() ? 0 : Math.min(n * 2, prompts.size())) {
      long start = System.nanoTime();
      long candidates = 0;
      for (int i = 1; i < n; i++) {
        long[] response = responses.get(i);
        for (int j = 0; j < i; j++) {
          if (shared(response, prompts.get(j)) > 0) {
            candidates++;
          }
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long pairs = (long) n * (n - 1) / 2;
      secondsPerPair = seconds / pairs;
      if (!points.isEmpty()) {
        points.append(',');
      }
      points.append(String.format(Locale.ROOT, "{\"requests\":%d,\"pairs\":%d,\"seconds\":%.3f,\"candidates\":%d}",
          n, pairs, seconds, candidates));
      if (seconds > budgetSeconds / 3) {
        break; // the next slice, twice the requests, would take about four times as long
      }
    }
    System.out.printf(Locale.ROOT,
        "{\"k\":%d,\"records_loaded\":%d,\"prep_s\":%.3f,\"seconds_per_pair\":%.4g,\"points\":[%s]}%n",
        k, prompts.size(), prepSeconds, secondsPerPair, points);
  }

  /** Sorted distinct k-gram hashes of {@code text}. */
  static long[] distinctKGrams(String text, int k) {
    long[] grams = KGramHasher.hash(WordTokenizer.tokenize(text).tokenHashes(), k);
    Arrays.sort(grams);
    int n = 0;
    for (int i = 0; i < grams.length; i++) {
      if (n == 0 || grams[i] != grams[n - 1]) {
        grams[n++] = grams[i];
      }
    }
    return Arrays.copyOf(grams, n);
  }

  /** How many of {@code probes} are in the sorted set {@code set}. */
  static int shared(long[] probes, long[] set) {
    if (set.length == 0) {
      return 0;
    }
    int found = 0;
    for (long probe : probes) {
      if (Arrays.binarySearch(set, probe) >= 0) {
        found++;
      }
    }
    return found;
  }

  private static void load(List<Path> files, int maxRecords, java.util.function.Consumer<RequestRecord> onRecord)
      throws IOException {
    int[] count = {0};
    RecordSink sink = new RecordSink() {
      @Override
      public void accept(Ingested item) {
        if (item instanceof RequestRecord r) {
          onRecord.accept(r);
          if (++count[0] >= maxRecords) {
            throw new Enough();
          }
        }
      }

      @Override
      public void malformed(BadInput bad, String raw) {}
    };
    LiteLlmIngestor ingestor = new LiteLlmIngestor();
    try {
      for (Path file : files) {
        ingestor.parse(new InputFile(file), IngestOptions.defaults(), sink);
      }
    } catch (Enough enough) {
      // the slice is full
    }
  }
}

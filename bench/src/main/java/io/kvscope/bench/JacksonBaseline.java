package io.kvscope.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The floor under any JSONL ingest: Jackson's streaming parser over the same files doing nothing
 * else. Two passes per round: tokens only (strings are skipped unread, as Jackson does when nobody
 * asks for them), and tokens with every string value decoded (what reading the data at least
 * costs). Prints one JSON object with the median of the rounds.
 *
 * <p>{@code java -cp 'bench/target/kvscope-bench.jar:bench/target/lib/*' io.kvscope.bench.JacksonBaseline [--rounds N] FILE...}
 */
public final class JacksonBaseline {

  private JacksonBaseline() {}

  /** What one pass saw. */
  record Pass(long bytes, long records, long tokens, long chars, long nanos) {
    double megabytesPerSecond() {
      return bytes / 1e6 / (nanos / 1e9);
    }
  }

  public static void main(String[] args) throws IOException {
    int rounds = 3;
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--rounds")) {
        rounds = Integer.parseInt(args[++i]);
      } else {
        files.add(Path.of(args[i]));
      }
    }
    if (files.isEmpty()) {
      System.err.println("usage: JacksonBaseline [--rounds N] FILE...");
      System.exit(2);
    }
    JsonFactory json = new JsonFactory();
    pass(json, files, false); // warm-up: JIT and page cache
    double[] tokensOnly = new double[rounds];
    double[] withText = new double[rounds];
    Pass last = null;
    for (int r = 0; r < rounds; r++) {
      tokensOnly[r] = pass(json, files, false).megabytesPerSecond();
      last = pass(json, files, true);
      withText[r] = last.megabytesPerSecond();
    }
    double mbps = median(withText);
    System.out.printf(Locale.ROOT,
        "{\"bytes\":%d,\"records\":%d,\"tokens\":%d,\"string_chars\":%d,\"rounds\":%d,"
            + "\"mb_per_s\":%.2f,\"tokens_only_mb_per_s\":%.2f,\"records_per_s\":%.1f}%n",
        last.bytes(), last.records(), last.tokens(), last.chars(), rounds, mbps, median(tokensOnly),
        last.records() / (last.bytes() / 1e6 / mbps));
  }

  static Pass pass(JsonFactory json, List<Path> files, boolean decodeStrings) throws IOException {
    long bytes = 0;
    long records = 0;
    long tokens = 0;
    long chars = 0;
    long start = System.nanoTime();
    for (Path file : files) {
      bytes += Files.size(file);
      try (JsonParser parser = json.createParser(file.toFile())) {
        for (JsonToken t = parser.nextToken(); t != null; t = parser.nextToken()) {
          tokens++;
          if (decodeStrings && (t == JsonToken.VALUE_STRING || t == JsonToken.FIELD_NAME)) {
            chars += parser.getTextLength(); // decodes the value into the parser's buffer
          }
          if (t == JsonToken.END_OBJECT && parser.getParsingContext().inRoot()) {
            records++;
          }
        }
      }
    }
    return new Pass(bytes, records, tokens, chars, System.nanoTime() - start);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}

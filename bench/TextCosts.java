// Thread CPU of the two per-text steps of a request's document that are not Lucene's: the
// identifiers (IdentifierExtractor.extract) and the fingerprint terms (the distinct winnowed
// hashes the index gets), over every gateway prompt and response of an incident, in one thread,
// best of rounds 4 to 8 (the first three compile). CPU, not wall: it reads the same on a busy
// machine. Runs against any build's jar, before or after Fingerprinter.distinctHashes(String):
//
//   java -cp "DIR/kvscope.jar:DIR/lib/*" bench/TextCosts.java INCIDENT     (DIR: a copy of cli/target)
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.litellm.LiteLlmIngestor;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.model.fingerprint.FingerprintConfig;
import io.kvscope.model.fingerprint.Fingerprinter;
import io.kvscope.model.identifiers.IdentifierExtractor;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

public class TextCosts {

  public static void main(String[] args) throws Exception {
    List<String> texts = gatewayTexts(Path.of(args[0]));
    long chars = texts.stream().mapToLong(String::length).sum();
    System.out.printf("%,d texts, %.1f M chars%n", texts.size(), chars / 1e6);
    IdentifierExtractor identifiers = new IdentifierExtractor();
    Fingerprinter fingerprinter = new Fingerprinter(FingerprintConfig.defaults());
    Method terms = termsMethod();
    measure("identifiers", texts, chars, t -> identifiers.extract(t).size());
    measure("fingerprint terms", texts, chars, t -> terms(fingerprinter, terms, t).length);
  }

  private static List<String> gatewayTexts(Path incident) throws Exception {
    List<String> texts = new ArrayList<>();
    RecordSink sink = new RecordSink() {
      @Override
      public void accept(Ingested item) {
        if (item instanceof RequestRecord r) {
          if (r.promptText() != null) {
            texts.add(r.promptText());
          }
          if (r.responseText() != null) {
            texts.add(r.responseText());
          }
        }
      }

      @Override
      public void malformed(BadInput bad, String raw) {}
    };
    try (var files = Files.list(incident.resolve("gateway"))) {
      for (Path file : files.sorted().toList()) {
        new LiteLlmIngestor().parse(new InputFile(file), IngestOptions.defaults(), sink);
      }
    }
    return texts;
  }

  /** The build's own way to the index's terms: distinctHashes(String) where there is one. */
  private static Method termsMethod() {
    try {
      return Fingerprinter.class.getMethod("distinctHashes", String.class);
    } catch (NoSuchMethodException older) {
      return null;
    }
  }

  private static long[] terms(Fingerprinter fingerprinter, Method terms, String text) {
    try {
      return terms != null ? (long[]) terms.invoke(fingerprinter, text) : fingerprinter.fingerprint(text).distinctHashes();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void measure(String what, List<String> texts, long chars, ToLongFunction<String> step) {
    var threads = ManagementFactory.getThreadMXBean();
    long best = Long.MAX_VALUE;
    long found = 0;
    for (int round = 0; round < 8; round++) {
      long start = threads.getCurrentThreadCpuTime();
      found = 0;
      for (String text : texts) {
        found += step.applyAsLong(text);
      }
      long cpu = threads.getCurrentThreadCpuTime() - start;
      if (round >= 3) {
        best = Math.min(best, cpu);
      }
    }
    System.out.printf("%s: %.3f CPU s a pass (%.0f M chars/s), %,d found%n", what, best / 1e9, chars / (best / 1e3), found);
  }
}

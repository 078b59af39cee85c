package io.kvscope.bench.jmh;

import io.kvscope.bench.EndToEnd;
import io.kvscope.index.IndexIngest;
import io.kvscope.index.store.IndexStore;
import io.kvscope.index.IngestProgress;
import io.kvscope.ingest.BadInput;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.RecordSink;
import io.kvscope.ingest.litellm.LiteLlmIngestor;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.samples.GeneratorOptions;
import io.kvscope.samples.IncidentGenerator;
import io.kvscope.samples.OutputCompression;
import io.kvscope.samples.Scale;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;

/** Realistic inputs for the micro-benchmarks, made with the sample generator (seed 1). */
final class Corpora {

  private Corpora() {}

  /** A generated incident at {@code scale} (plain files) under a new temporary folder. */
  static Path incident(String scale) throws IOException {
    Path dir = Files.createTempDirectory("kvscope-jmh-");
    new IncidentGenerator().generate(dir.resolve("incident"),
        GeneratorOptions.incident(1, Scale.parse(scale)).withCompression(OutputCompression.PLAIN));
    return dir.resolve("incident");
  }

  /** The incident ingested into an index next to it (the CLI's ingest, engine facts joined). */
  static Path index(Path incident) throws IOException {
    Path index = incident.resolveSibling("index");
    try (IndexStore store = IndexStore.open(index)) {
      new IndexIngest(store, Ingestors.discover(), IngestOptions.defaults(), IngestProgress.NONE, Clock.systemUTC())
          .run(List.of(incident));
    }
    return index;
  }

  /**
   * Gateway prompts and responses in log order, joined by blank lines, cut at about
   * {@code utf8Bytes} bytes of UTF-8 (on a char boundary): a mix of chat turns, documents and the
   * multi-megabyte over-length prompts, as ingest sees them.
   */
  static String gatewayText(int utf8Bytes) throws IOException {
    Path incident = incident("0.05x");
    StringBuilder text = new StringBuilder();
    long[] bytes = {0};
    RecordSink sink = new RecordSink() {
      @Override
      public void accept(Ingested item) {
        if (item instanceof RequestRecord r && bytes[0] < utf8Bytes) {
          for (String part : new String[] {r.promptText(), r.responseText()}) {
            if (part != null) {
              text.append(part).append("\n\n");
              bytes[0] += part.getBytes(StandardCharsets.UTF_8).length + 2;
            }
          }
        }
      }

      @Override
      public void malformed(BadInput bad, String raw) {}
    };
    try (Stream<Path> files = Files.list(incident.resolve("gateway"))) {
      for (Path file : files.sorted().toList()) {
        new LiteLlmIngestor().parse(new InputFile(file), IngestOptions.defaults(), sink);
      }
    }
    EndToEnd.deleteTree(incident.getParent());
    // Trim to the byte budget: the score is then MB/s directly (one op = one MB when 1,000,000).
    int end = text.length();
    while (text.substring(0, end).getBytes(StandardCharsets.UTF_8).length > utf8Bytes) {
      end -= Math.max(1, (text.substring(0, end).getBytes(StandardCharsets.UTF_8).length - utf8Bytes) / 3);
    }
    if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end);
  }
}

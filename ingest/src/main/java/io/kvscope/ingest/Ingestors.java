package io.kvscope.ingest;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The registered input formats, found through {@link ServiceLoader} so that a new format is one
 * class plus one line in {@code META-INF/services/io.kvscope.ingest.Ingestor}.
 */
public final class Ingestors {

  private final List<Ingestor> all;

  public Ingestors(List<Ingestor> ingestors) {
    this.all = List.copyOf(ingestors);
  }

  /** Every ingestor on the class path, in registration order. */
  public static Ingestors discover() {
    return new Ingestors(ServiceLoader.load(Ingestor.class).stream().map(ServiceLoader.Provider::get).toList());
  }

  public List<Ingestor> all() {
    return all;
  }

  public Optional<Ingestor> byName(String name) {
    return all.stream().filter(i -> i.name().equals(name)).findFirst();
  }

  /** The format of {@code file} by its content: the most confident detector, if any claims it. */
  public Optional<Ingestor> detect(InputFile file, IngestOptions options) throws IOException {
    return detect(file.sniff(), options);
  }

  /** The format of a file by its already read start (see {@link InputFile#sniff()}). */
  public Optional<Ingestor> detect(Sniff sniff, IngestOptions options) {
    if (sniff.isEmpty()) {
      return Optional.empty();
    }
    Ingestor best = null;
    int bestScore = 0;
    for (Ingestor ingestor : all) {
      int score = ingestor.detect(sniff, options);
      if (score > bestScore) {
        best = ingestor;
        bestScore = score;
      }
    }
    return Optional.ofNullable(best);
  }
}

package io.kvscope.samples;

import java.nio.file.Path;

/**
 * What to generate.
 *
 * @param seed every random choice derives from it: the same options give byte-identical files
 * @param corpus JSON lines of real questions with real models' answers to build the traffic's
 *     questions, answers and pasted documents from (plain or zstd, read at generation time); null
 *     for the built-in text
 * @param sizeMix how much ordinary traffic surrounds the over-length prompts
 */
public record GeneratorOptions(long seed, Scale scale, FleetMode mode, OutputCompression compression, Path corpus,
    SizeMix sizeMix) {

  public GeneratorOptions {
    if (scale == null || mode == null || compression == null || sizeMix == null) {
      throw new IllegalArgumentException("scale, mode, compression and size mix are required");
    }
  }

  /** With the incident's own size mix. */
  public GeneratorOptions(long seed, Scale scale, FleetMode mode, OutputCompression compression, Path corpus) {
    this(seed, scale, mode, compression, corpus, SizeMix.INCIDENT);
  }

  /** With the built-in text. */
  public GeneratorOptions(long seed, Scale scale, FleetMode mode, OutputCompression compression) {
    this(seed, scale, mode, compression, null);
  }

  /** The incident at {@code scale}, as rotated logs look. */
  public static GeneratorOptions incident(long seed, Scale scale) {
    return new GeneratorOptions(seed, scale, FleetMode.INCIDENT, OutputCompression.ROTATED);
  }

  public GeneratorOptions withMode(FleetMode m) {
    return new GeneratorOptions(seed, scale, m, compression, corpus, sizeMix);
  }

  public GeneratorOptions withCompression(OutputCompression c) {
    return new GeneratorOptions(seed, scale, mode, c, corpus, sizeMix);
  }

  public GeneratorOptions withCorpus(Path file) {
    return new GeneratorOptions(seed, scale, mode, compression, file, sizeMix);
  }

  public GeneratorOptions withSizeMix(SizeMix mix) {
    return new GeneratorOptions(seed, scale, mode, compression, corpus, mix);
  }
}

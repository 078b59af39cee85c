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
 * @param traps also make the situations that fool a leak analysis on text alone: stub replies
 *     opening with phrasing many tenants hold, questions asked after pasted text or in near-duplicate
 *     words and answered as others were (served normally), leaks under the 12-word floor and canaries
 *     in another format (the truth marks each); off, the output is as without this knob
 */
public record GeneratorOptions(long seed, Scale scale, FleetMode mode, OutputCompression compression, Path corpus,
    SizeMix sizeMix, boolean traps) {

  public GeneratorOptions {
    if (scale == null || mode == null || compression == null || sizeMix == null) {
      throw new IllegalArgumentException("scale, mode, compression and size mix are required");
    }
  }

  /** Without the traps. */
  public GeneratorOptions(long seed, Scale scale, FleetMode mode, OutputCompression compression, Path corpus,
      SizeMix sizeMix) {
    this(seed, scale, mode, compression, corpus, sizeMix, false);
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
    return new GeneratorOptions(seed, scale, m, compression, corpus, sizeMix, traps);
  }

  public GeneratorOptions withCompression(OutputCompression c) {
    return new GeneratorOptions(seed, scale, mode, c, corpus, sizeMix, traps);
  }

  public GeneratorOptions withCorpus(Path file) {
    return new GeneratorOptions(seed, scale, mode, compression, file, sizeMix, traps);
  }

  public GeneratorOptions withSizeMix(SizeMix mix) {
    return new GeneratorOptions(seed, scale, mode, compression, corpus, mix, traps);
  }

  public GeneratorOptions withTraps(boolean on) {
    return new GeneratorOptions(seed, scale, mode, compression, corpus, sizeMix, on);
  }
}

package io.kvscope.samples;

/**
 * What to generate.
 *
 * @param seed every random choice derives from it: the same options give byte-identical files
 */
public record GeneratorOptions(long seed, Scale scale, FleetMode mode, OutputCompression compression) {

  public GeneratorOptions {
    if (scale == null || mode == null || compression == null) {
      throw new IllegalArgumentException("scale, mode and compression are required");
    }
  }

  /** The incident at {@code scale}, as rotated logs look. */
  public static GeneratorOptions incident(long seed, Scale scale) {
    return new GeneratorOptions(seed, scale, FleetMode.INCIDENT, OutputCompression.ROTATED);
  }

  public GeneratorOptions withMode(FleetMode m) {
    return new GeneratorOptions(seed, scale, m, compression);
  }

  public GeneratorOptions withCompression(OutputCompression c) {
    return new GeneratorOptions(seed, scale, mode, c);
  }
}

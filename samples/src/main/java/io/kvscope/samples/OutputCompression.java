package io.kvscope.samples;

/** How the generated log files are compressed. {@code truth.json} is always plain. */
public enum OutputCompression {
  /** Everything plain: fastest to write and read (benchmarks). */
  PLAIN,
  /** As rotated logs look: the first days' gateway files and one engine log gzipped, the rest plain. */
  ROTATED,
  /** Everything zstd with a long window (the shipped dataset: megabyte prompts share pasted manuals). */
  ZSTD
}

package io.kvscope.samples;

/** How the generated log files are compressed. {@code truth.json} is always plain. */
public enum OutputCompression {
  /** Everything plain: fastest to write and read (benchmarks). */
  PLAIN,
  /** As rotated logs look: the first days' gateway files and one engine log gzipped, the rest plain. */
  ROTATED,
  /** Everything zstd (level 9) with a long window: megabyte prompts share pasted manuals. */
  ZSTD,
  /** Everything zstd at level 19: the smallest files, minutes to write (used for the shipped dataset). */
  ZSTD_MAX
}

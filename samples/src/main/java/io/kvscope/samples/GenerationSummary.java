package io.kvscope.samples;

import io.kvscope.samples.out.WrittenFile;
import io.kvscope.samples.truth.SummaryTruth;
import java.nio.file.Path;
import java.util.List;

/**
 * What a generation run wrote.
 *
 * @param files the log files (not {@code truth.json}), paths relative to {@code outDir}
 * @param rawBytes uncompressed bytes of the log files
 * @param bytes bytes on disk of the log files
 * @param requests requests simulated (each has exactly one gateway record or span)
 * @param expected the report summary an analyzer should arrive at
 */
public record GenerationSummary(Path outDir, Path truthFile, List<WrittenFile> files, long rawBytes, long bytes,
    long requests, long litellmRecords, long otlpSpans, SummaryTruth expected) {

  public GenerationSummary {
    files = List.copyOf(files);
  }
}

package io.kvscope.samples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Developer tool (test sources): rewrites the shipped dataset. Argument: the resource folder,
 * normally {@code samples/src/main/resources/io/kvscope/samples/incident}. Takes about a minute
 * (zstd level 19).
 */
public final class RegenerateSampleDataset {

  private RegenerateSampleDataset() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    if (Files.exists(dir)) {
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    GenerationSummary summary = new IncidentGenerator().generate(dir, SampleDataset.options());
    List<String> files;
    try (Stream<Path> s = Files.walk(dir)) {
      files = s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString().replace('\\', '/')).sorted().toList();
    }
    Files.write(dir.resolve("index.txt"), files);
    long bytes = 0;
    for (String f : files) {
      bytes += Files.size(dir.resolve(f));
    }
    System.out.printf("%d files, %.2f MB, expected summary %s%n", files.size(), bytes / 1e6, summary.expected());
  }
}

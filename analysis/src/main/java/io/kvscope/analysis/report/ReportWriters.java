package io.kvscope.analysis.report;

import io.kvscope.analysis.impact.Report;
import io.kvscope.index.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Writes every requested output of a report into one owner-only directory:
 *
 * <pre>
 * List&lt;Path&gt; written = ReportWriters.writeAll(report, outDir, WriteOptions.defaults());
 * ReportWriters.writeAll(ReportJson.read(outDir.resolve("report.json")), outDir,
 *     WriteOptions.defaults().withReveal(true).withText(new IndexTextSource(search)));
 * </pre>
 *
 * Files keep fixed names ({@link Format#fileName()}). The whole set is first written into a hidden
 * staging directory inside {@code outDir} and only then moved over the previous files, one atomic
 * rename each, {@code report.json} last: a run that is killed while rendering leaves the previous
 * report whole, and a reader never sees half of a file. Staging directories and temporary files
 * a killed run left behind are removed by the next run into the same directory (so two runs must
 * not write into one directory at the same time).
 */
public final class ReportWriters {

  /** Prefix of the hidden staging directory of a run in progress (or of a killed one). */
  static final String STAGING_PREFIX = ".staging-";

  private ReportWriters() {}

  /** Writes the formats of {@code options} in a fixed order; returns the files (and bundle directories) written. */
  public static List<Path> writeAll(Report report, Path outDir, WriteOptions options) throws IOException {
    OwnerOnly.directory(outDir);
    removeLeftovers(outDir);
    Path staging = OwnerOnly.directory(Files.createTempDirectory(outDir, STAGING_PREFIX));
    try {
      List<Path> written = new ArrayList<>();
      for (Format format : Format.values()) {
        if (!options.formats().contains(format)) {
          continue;
        }
        Path target = staging.resolve(format.fileName());
        switch (format) {
          case JSON -> written.add(ReportJson.write(report, target));
          case CSV -> written.add(FindingsCsv.write(report, target));
          case MARKDOWN -> written.add(MarkdownReport.write(report, target, options));
          case HTML -> written.add(HtmlReport.write(report, target, options));
          case ARROW -> written.add(FindingsArrow.write(report, target));
          case NDJSON -> written.add(FindingsNdjson.write(report, target));
          case BUNDLES -> written.addAll(TenantBundles.write(report, target));
        }
      }
      publish(staging, outDir);
      return written.stream().map(p -> outDir.resolve(staging.relativize(p))).toList();
    } finally {
      deleteRecursively(staging);
    }
  }

  /** Moves every staged file over its counterpart in {@code outDir}, report.json last. */
  private static void publish(Path staging, Path outDir) throws IOException {
    List<Path> staged;
    try (Stream<Path> walk = Files.walk(staging)) {
      staged = walk.sorted().toList(); // parents before their children
    }
    for (Path dir : staged) {
      if (Files.isDirectory(dir) && !dir.equals(staging)) {
        OwnerOnly.directory(outDir.resolve(staging.relativize(dir)));
      }
    }
    List<Path> files = staged.stream().filter(Files::isRegularFile)
        .sorted(Comparator.comparing((Path p) -> p.equals(staging.resolve(Format.JSON.fileName())))
            .thenComparing(Comparator.naturalOrder()))
        .toList();
    for (Path file : files) {
      Files.move(file, outDir.resolve(staging.relativize(file)), StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Staging directories and temporary files of runs that were killed before they finished. */
  private static void removeLeftovers(Path outDir) throws IOException {
    List<Path> leftovers;
    try (Stream<Path> entries = Files.list(outDir)) {
      leftovers = entries.filter(p -> {
        String name = p.getFileName().toString();
        return name.startsWith(STAGING_PREFIX) || (name.startsWith(".") && name.endsWith(".tmp"));
      }).toList();
    }
    for (Path leftover : leftovers) {
      deleteRecursively(leftover);
    }
  }

  private static void deleteRecursively(Path path) throws IOException {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}

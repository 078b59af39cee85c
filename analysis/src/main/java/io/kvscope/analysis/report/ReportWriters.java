package io.kvscope.analysis.report;

import io.kvscope.analysis.impact.Report;
import io.kvscope.index.store.OwnerOnly;
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
 * staging directory inside {@code outDir} and only then published, all or nothing:
 * <ul>
 *   <li>before anything moves, every place a file goes is checked: a folder where a file goes, a
 *       file where a folder goes, or a symbolic link anywhere below {@code outDir} (kvscope never
 *       writes, or changes permissions, through a link) stops the run with the old reports in place;
 *   <li>files are then moved over their counterparts, one atomic rename each, {@code report.json}
 *       last; each file replaced is first kept as a hard link in the staging directory, so a
 *       failure half way puts every earlier file back as it was.
 * </ul>
 * A run that is killed while rendering leaves the previous report whole, and a reader never sees
 * half of a file (temporary files live in the staging directory too). The next run into the same
 * directory removes the staging directories a killed run left behind, and only those: they hold
 * the mark {@value #STAGING_MARK} (or nothing at all); a user's own {@code .x.tmp} or
 * {@code .staging-notes} is left alone. Two runs must not write into one directory at the same
 * time.
 */
public final class ReportWriters {

  /** Prefix of the hidden staging directory of a run in progress (or of a killed one). */
  static final String STAGING_PREFIX = ".staging-";
  /** The empty file that marks a staging directory as kvscope's. */
  static final String STAGING_MARK = ".kvscope-staging";
  /** Where a staging directory keeps the files it replaces until the publication is complete. */
  private static final String PREVIOUS = ".previous";

  private ReportWriters() {}

  /** Writes the formats of {@code options} in a fixed order; returns the files (and bundle directories) written. */
  public static List<Path> writeAll(Report report, Path outDir, WriteOptions options) throws IOException {
    OwnerOnly.directory(outDir);
    removeLeftovers(outDir);
    Path staging = OwnerOnly.directory(Files.createTempDirectory(outDir, STAGING_PREFIX));
    try {
      OwnerOnly.createFile(staging.resolve(STAGING_MARK));
      List<Path> written = new ArrayList<>();
      RenderedEvidence evidence = new RenderedEvidence(); // rendered once, for report.json and the three tables
      for (Format format : Format.values()) {
        if (!options.formats().contains(format)) {
          continue;
        }
        Path target = staging.resolve(format.fileName());
        switch (format) {
          case JSON -> written.add(ReportJson.write(report, target, evidence));
          case CSV -> written.add(FindingsCsv.write(report, target, evidence));
          case MARKDOWN -> written.add(MarkdownReport.write(report, target, options));
          case HTML -> written.add(HtmlReport.write(report, target, options));
          case ARROW -> written.add(FindingsArrow.write(report, target, evidence));
          case NDJSON -> written.add(FindingsNdjson.write(report, target, evidence));
          case BUNDLES -> written.addAll(TenantBundles.write(report, target, options.notice()));
          case TIMESKETCH -> written.add(TimesketchTimeline.write(report, target));
        }
      }
      publish(staging, outDir);
      return written.stream().map(p -> outDir.resolve(staging.relativize(p))).toList();
    } finally {
      deleteRecursively(staging);
    }
  }

  /** Moves every staged file over its counterpart in {@code outDir}, report.json last; all or nothing. */
  private static void publish(Path staging, Path outDir) throws IOException {
    List<Path> staged;
    try (Stream<Path> walk = Files.walk(staging)) {
      staged = walk.filter(p -> !p.getFileName().toString().equals(STAGING_MARK)).sorted().toList(); // parents first
    }
    List<Path> dirs = staged.stream().filter(p -> !p.equals(staging) && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
        .toList();
    List<Path> files = staged.stream().filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
        .sorted(Comparator.comparing((Path p) -> p.equals(staging.resolve(Format.JSON.fileName())))
            .thenComparing(Comparator.naturalOrder()))
        .toList();
    for (Path dir : dirs) {
      requireFree(outDir, outDir.resolve(staging.relativize(dir)), true);
    }
    for (Path file : files) {
      requireFree(outDir, outDir.resolve(staging.relativize(file)), false);
    }
    for (Path dir : dirs) {
      OwnerOnly.directory(outDir.resolve(staging.relativize(dir)));
    }
    Path previous = staging.resolve(PREVIOUS);
    List<Path> published = new ArrayList<>();
    try {
      for (Path file : files) {
        Path target = outDir.resolve(staging.relativize(file));
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
          keep(target, previous.resolve(staging.relativize(file)));
        }
        Files.move(file, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        published.add(staging.relativize(file));
      }
    } catch (IOException | RuntimeException failed) {
      restore(published, previous, outDir, failed);
      throw failed;
    }
  }

  /**
   * Refuses, before anything is published, a place that holds the wrong kind of thing or that a
   * symbolic link would redirect: every step below {@code outDir} must be a real folder or absent.
   */
  private static void requireFree(Path outDir, Path target, boolean directory) throws IOException {
    for (Path step = target; !step.equals(outDir); step = step.getParent()) {
      if (Files.isSymbolicLink(step)) {
        throw new IOException(outDir.relativize(step) + " in " + outDir + " is a symbolic link; kvscope does not write"
            + " through links in a report folder: remove it, or choose another --out");
      }
    }
    if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    boolean isDirectory = Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS);
    if (directory != isDirectory) {
      throw new IOException(outDir.relativize(target) + " in " + outDir + " is " + (isDirectory ? "a folder" : "not a folder")
          + " where kvscope writes " + (directory ? "a folder" : "a file") + "; move it away, or choose another --out");
    }
  }

  /** Keeps the file about to be replaced, as a second name of the same file (a copy where links fail). */
  private static void keep(Path target, Path kept) throws IOException {
    Files.createDirectories(kept.getParent());
    try {
      Files.createLink(kept, target);
    } catch (UnsupportedOperationException | IOException noHardLinks) {
      Files.copy(target, kept, StandardCopyOption.COPY_ATTRIBUTES);
    }
  }

  /** Puts back what a failed publication replaced, and takes away what it added. */
  private static void restore(List<Path> published, Path previous, Path outDir, Exception failed) {
    for (Path relative : published.reversed()) {
      Path target = outDir.resolve(relative);
      Path kept = previous.resolve(relative);
      try {
        if (Files.exists(kept, LinkOption.NOFOLLOW_LINKS)) {
          Files.move(kept, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } else {
          Files.deleteIfExists(target);
        }
      } catch (IOException | RuntimeException cannotRestore) {
        failed.addSuppressed(cannotRestore);
      }
    }
  }

  /**
   * Staging directories and temporary files of runs that were killed before they finished, and
   * nothing else (see the class comment).
   */
  private static void removeLeftovers(Path outDir) throws IOException {
    List<Path> leftovers;
    try (Stream<Path> entries = Files.list(outDir)) {
      leftovers = entries.filter(ReportWriters::isLeftover).toList();
    }
    for (Path leftover : leftovers) {
      deleteRecursively(leftover);
    }
  }

  /** A staging directory with the mark, or one left empty by a run killed before it could mark it. */
  private static boolean isLeftover(Path entry) {
    if (!entry.getFileName().toString().startsWith(STAGING_PREFIX) || !Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    if (Files.isRegularFile(entry.resolve(STAGING_MARK), LinkOption.NOFOLLOW_LINKS)) {
      return true;
    }
    try (Stream<Path> inside = Files.list(entry)) {
      return inside.findAny().isEmpty();
    } catch (IOException unreadable) {
      return false;
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

package io.kvscope.analysis.report;

import io.kvscope.analysis.impact.Report;
import io.kvscope.index.OwnerOnly;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes every requested output of a report into one owner-only directory:
 *
 * <pre>
 * List&lt;Path&gt; written = ReportWriters.writeAll(report, outDir, WriteOptions.defaults());
 * ReportWriters.writeAll(ReportJson.read(outDir.resolve("report.json")), outDir,
 *     WriteOptions.defaults().withReveal(true).withText(new IndexTextSource(search)));
 * </pre>
 *
 * Files keep fixed names ({@link Format#fileName()}); each is replaced atomically, so re-rendering
 * into the same directory is safe while someone has the old report open.
 */
public final class ReportWriters {

  private ReportWriters() {}

  /** Writes the formats of {@code options} in a fixed order; returns the files (and bundle directories) written. */
  public static List<Path> writeAll(Report report, Path outDir, WriteOptions options) throws IOException {
    OwnerOnly.directory(outDir);
    List<Path> written = new ArrayList<>();
    for (Format format : Format.values()) {
      if (!options.formats().contains(format)) {
        continue;
      }
      Path target = outDir.resolve(format.fileName());
      switch (format) {
        case JSON -> written.add(ReportJson.write(report, target));
        case CSV -> written.add(FindingsCsv.write(report, target));
        case MARKDOWN -> written.add(MarkdownReport.write(report, target, options));
        case HTML -> written.add(HtmlReport.write(report, target, options));
        case ARROW -> written.add(FindingsArrow.write(report, target));
        case BUNDLES -> written.addAll(TenantBundles.write(report, target));
      }
    }
    return written;
  }
}

package io.kvscope.cli;

import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.report.IndexTextSource;
import io.kvscope.analysis.report.ReportWriters;
import io.kvscope.analysis.report.RevealedCopy;
import io.kvscope.analysis.report.WriteOptions;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.Printable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** Writes a report's files and says where they went. */
final class ReportOutput {

  private ReportOutput() {}

  /**
   * Writes every format into {@code to}'s folder. With an index, leaked spans are described from
   * their text (hash, length, categories; the text itself only when revealed) and findings link to
   * their traces (the trace ids are there).
   */
  static List<Path> write(Report report, Path indexDir, ReportDestination to, PrintStream out) throws IOException {
    Path outDir = to.folder();
    boolean reveal = to.reveal();
    Path redacted = reveal ? RevealedCopy.redactedReportIn(outDir) : null;
    if (redacted != null) {
      throw new IOException(Printable.text(redacted) + " is a redacted report; kvscope does not write revealed text over"
          + " it. Write the revealed copy to a folder of its own (--out " + Printable.text(outDir.resolve(RevealedCopy.FOLDER))
          + ")");
    }
    List<Path> written;
    try {
      if (indexDir != null && IndexStore.exists(indexDir)) {
        try (IndexSearch search = IndexSearch.open(indexDir)) {
          written = ReportWriters.writeAll(report, outDir,
              WriteOptions.defaults().withReveal(reveal).withNotice(to.notice()).withText(new IndexTextSource(search))
                  .withTraceLinks(to.traceLinks()));
        }
      } else {
        written = ReportWriters.writeAll(report, outDir, WriteOptions.defaults().withReveal(reveal).withNotice(to.notice()));
      }
    } catch (IOException cannotWrite) {
      // A full disk or a read-only folder. Reports are moved into place only once all are written,
      // so the ones already there still stand (unless the disk filled during the final renames).
      String reason = cannotWrite instanceof java.nio.file.FileSystemException fs && fs.getReason() != null
          ? fs.getReason() : cannotWrite.getMessage() != null ? cannotWrite.getMessage() : cannotWrite.getClass().getSimpleName();
      throw new IOException("cannot write the reports to " + outDir + " (" + reason
          + "); reports already there are unchanged", cannotWrite);
    }
    out.println("Reports written to " + Printable.text(outDir.toAbsolutePath()) + (reveal ? " (content REVEALED)" : " (content redacted)") + ":");
    out.println("  " + Printable.text(outDir.resolve("report.html")) + "  (open in a browser)");
    long bundles = written.stream().filter(p -> p.getParent() != null && p.getParent().endsWith("bundles")).count();
    out.println("  report.json, findings.csv, report.md, findings.arrow, findings.ndjson, timesketch.jsonl, bundles/<tenant>/ (one for each of "
        + bundles + (bundles == 1 ? " tenant)" : " tenants)"));
    return written;
  }
}

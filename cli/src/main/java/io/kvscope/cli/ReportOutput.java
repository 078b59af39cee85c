package io.kvscope.cli;

import io.kvscope.analysis.impact.Report;
import java.io.PrintStream;
import java.nio.file.Path;

/** Writes a report's files and says where they went. */
final class ReportOutput {

  private ReportOutput() {}

  static void write(Report report, Path indexDir, Path outDir, boolean reveal, PrintStream out) throws java.io.IOException {
    // The report writers land with the reports issue; until then only the summary is printed.
    out.println("Reports: (writers not yet available) " + outDir);
  }
}

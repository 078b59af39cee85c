package io.kvscope.cli;

import io.kvscope.analysis.report.NoticeDetails;
import io.kvscope.analysis.report.TraceLinks;
import java.nio.file.Path;

/**
 * Where a command writes its reports and how: the folder, whether text is revealed, how tenant
 * notices are signed and how findings link to their traces.
 */
record ReportDestination(Path folder, boolean reveal, NoticeDetails notice, TraceLinks traceLinks) {

  /** Redacted reports in {@code folder}, unsigned notices, no trace links. */
  static ReportDestination redacted(Path folder) {
    return new ReportDestination(folder, false, NoticeDetails.NONE, TraceLinks.NONE);
  }
}

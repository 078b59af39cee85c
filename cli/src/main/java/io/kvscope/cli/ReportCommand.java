package io.kvscope.cli;

import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.analysis.report.RevealedCopy;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.Printable;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = "Re-render every report format from a report.json (e.g. after an upgrade, or with --reveal). "
        + "The leaked text lives in the index, not in report.json: give --index to describe leaked spans "
        + "(hash, length, data categories) or, with --reveal, to show them.")
final class ReportCommand implements Callable<Integer> {

  @Parameters(paramLabel = "REPORT_JSON", description = "A report.json written by 'kvscope analyze'.")
  Path reportJson;

  @Mixin
  NoticeOptions notice = new NoticeOptions();

  @Mixin
  TraceUrlOption trace = new TraceUrlOption();

  @Option(names = {"-i", "--index"}, paramLabel = "DIR", description = "The index the report was made from (optional).")
  Path index;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Settings file (default: " + Settings.FILE + " in the --index folder, when there is one).")
  Path config;

  @Option(names = {"-o", "--out"}, paramLabel = "DIR", description = "Where to write (default: next to REPORT_JSON; "
      + "with --reveal, the folder " + RevealedCopy.FOLDER + " next to it: revealed text never replaces redacted reports).")
  Path out;

  @Option(names = "--reveal", description = "Include prompt/response text (sensitive; needs --index).")
  boolean reveal;

  @Override
  public Integer call() throws Exception {
    if (index == null && reveal) {
      System.err.println("kvscope report: --reveal needs --index: the text to reveal is in the index, not in report.json");
      return ExitCodes.ERROR;
    }
    if (index != null && !IndexStore.exists(index)) {
      System.err.println("kvscope report: no kvscope index at " + Printable.text(index));
      return ExitCodes.ERROR;
    }
    if (index == null) {
      System.err.println("kvscope report: no --index: the reports leave out the leaked-content descriptions");
    }
    Report report = ReportJson.read(reportJson);
    Path beside = reportJson.toAbsolutePath().getParent();
    Path target = out != null ? out : reveal ? beside.resolve(RevealedCopy.FOLDER) : beside;
    SummaryPrinter.print(report, System.out);
    ReportOutput.write(report, index, new ReportDestination(target, reveal, notice.toDetails(), trace.links()),
        System.out);
    return ExitCodes.OK;
  }
}

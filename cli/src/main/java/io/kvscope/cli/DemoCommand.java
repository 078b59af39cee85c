package io.kvscope.cli;

import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.index.IngestSummary;
import io.kvscope.index.store.IncompatibleIndexException;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Printable;
import io.kvscope.samples.GeneratorOptions;
import io.kvscope.samples.IncidentGenerator;
import io.kvscope.samples.OutputCompression;
import io.kvscope.samples.Scale;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "The whole job on a sample incident: generate it, ingest it, analyze it, print the exposure "
        + "summary and write the reports. Everything goes under --dir.")
final class DemoCommand implements Callable<Integer> {

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = "kvscope-demo",
      description = "Working folder for the incident, index and reports (default: ${DEFAULT-VALUE}).")
  Path dir;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Incident seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    Path incident = dir.resolve("incident");
    Path index = dir.resolve("index");
    Path reports = dir.resolve("reports");
    if (!Files.exists(incident.resolve("truth.json"))) {
      System.out.println("1/3 Generating the sample incident (seed " + seed + ") into " + Printable.text(incident));
      new IncidentGenerator().generate(incident,
          GeneratorOptions.incident(seed, Scale.SMALL).withCompression(OutputCompression.ROTATED));
    } else {
      System.out.println("1/3 Using the sample incident in " + Printable.text(incident));
    }
    System.out.println("2/3 Ingesting into " + Printable.text(index));
    setAsideIfIncompatible(index, System.out);
    AnalyzeCommand.Analyzed analyzed;
    // One bar over both steps; what is printed between them goes above it.
    try (ProgressBarReporter progress = new ProgressBarReporter(ProgressBarReporter.Steps.INGEST_THEN_ANALYSIS,
        System.err, quiet)) {
      IngestSummary ingested = IngestCommand.ingest(index, List.of(incident), IngestOptions.defaults(), progress);
      progress.above(System.out, out -> {
        IngestCommand.print(ingested, out);
        NodeSummary.print(index, out);
        out.println("3/3 Analyzing");
        out.println();
      });
      analyzed = AnalyzeCommand.analyze(index, AnalysisOptions.defaults(), AnalyzeCommand.showing(progress, System.out),
          System.err);
      progress.analysisEnded();
    }
    SummaryPrinter.print(analyzed.report(), System.out);
    System.out.println();
    ReportOutput.write(analyzed.report(), index, ReportDestination.redacted(reports), System.out);
    System.out.println("Ground truth for comparison: " + Printable.text(incident.resolve("truth.json")));
    System.out.println("Next: ./kvscope search --index " + Printable.text(index) + " 'status_code:200 AND engine_input_len:1'");
    return analyzed.warnIncomplete(System.err) ? ExitCodes.ERROR : ExitCodes.OK;
  }

  /**
   * The demo adds to its own index when run again; an index an earlier kvscope built that this one
   * cannot add to is moved aside (never deleted: it may have been looked at) and a new one built.
   */
  static void setAsideIfIncompatible(Path index, PrintStream out) throws IOException {
    try {
      IndexStore.requireAppendable(index);
    } catch (IncompatibleIndexException older) {
      Path aside = index.resolveSibling(index.getFileName() + "-older-" + System.currentTimeMillis());
      Files.move(index, aside);
      out.println("    the index there was built by an earlier kvscope that this one cannot add to; it is kept at "
          + Printable.text(aside) + " and a new one is built");
    }
  }
}

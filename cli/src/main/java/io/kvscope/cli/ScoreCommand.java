package io.kvscope.cli;

import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.samples.truth.GroundTruth;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
    name = "score",
    mixinStandardHelpOptions = true,
    description = {
        "Score a report against a generated incident's truth.json: leaked responses (precision and",
        "recall), confirmed false positives, recall of leaks with a fragment of 12 words or more or an",
        "identifier, true sources among the reported ones, sole-attribution precision, candidates per",
        "leak, over-length accepted and underruns.",
        "Exit 0 when every figure is as it should be, 1 otherwise."
    })
final class ScoreCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "TRUTH_JSON", description = "truth.json written by 'kvscope generate'.")
  Path truthFile;

  @Parameters(index = "1", paramLabel = "REPORT_JSON", description = "report.json written by 'kvscope analyze'.")
  Path reportFile;

  @Override
  public Integer call() throws Exception {
    GroundTruth truth = GroundTruth.load(truthFile);
    Report report = ReportJson.read(reportFile);
    QualityScore score = QualityScore.of(truth, report);
    score.lines().forEach(System.out::println);
    return score.passes() ? KvScope.OK : KvScope.FINDINGS;
  }
}

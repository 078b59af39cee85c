package io.kvscope.cli;

import static io.kvscope.ingest.KvscopeOutputs.REPORT_VERSION_FIELD;
import static io.kvscope.ingest.KvscopeOutputs.TRUTH_VERSION_FIELD;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.samples.truth.GroundTruth;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
    name = "score",
    mixinStandardHelpOptions = true,
    description = "Score a report against a generated incident's truth.json: leaked responses (precision and "
        + "recall, and whether the range the report states holds the truth), confirmed false positives, recall "
        + "of leaks with a fragment of " + QualityScore.SIGNIFICANT_WORDS + " words or more or an identifier, true "
        + "sources among the reported ones, sole-attribution precision, candidates per leak, over-length accepted "
        + "and underruns. The two files are told apart by content, so their order does not matter. Exit 0 when "
        + "every figure is as it should be, 1 otherwise.")
final class ScoreCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "TRUTH_JSON", description = "truth.json written by 'kvscope generate'.")
  Path truthFile;

  @Parameters(index = "1", paramLabel = "REPORT_JSON", description = "report.json written by 'kvscope analyze'.")
  Path reportFile;

  @Override
  public Integer call() throws Exception {
    if (versionKey(truthFile).equals(REPORT_VERSION_FIELD) && versionKey(reportFile).equals(TRUTH_VERSION_FIELD)) {
      Path swapped = truthFile;
      truthFile = reportFile;
      reportFile = swapped;
    }
    if (!versionKey(truthFile).equals(TRUTH_VERSION_FIELD)) {
      throw new IOException(truthFile + " is not a truth.json written by 'kvscope generate' (it has no " + TRUTH_VERSION_FIELD + ")");
    }
    if (!versionKey(reportFile).equals(REPORT_VERSION_FIELD)) {
      throw new IOException(reportFile + " is not a report.json written by 'kvscope analyze' (it has no " + REPORT_VERSION_FIELD + ")");
    }
    GroundTruth truth = GroundTruth.load(truthFile);
    Report report = ReportJson.read(reportFile);
    QualityScore score = QualityScore.of(truth, report);
    score.lines().forEach(System.out::println);
    return score.passes() ? ExitCodes.OK : ExitCodes.FINDINGS;
  }

  /** The top-level "..._version" key naming what a kvscope JSON file is, or "" when there is none. */
  private static String versionKey(Path file) throws IOException {
    try (JsonParser json = new JsonFactory().createParser(file.toFile())) {
      if (json.nextToken() != JsonToken.START_OBJECT) {
        return "";
      }
      while (json.nextToken() == JsonToken.FIELD_NAME) {
        String name = json.currentName();
        if (name.endsWith("_version")) {
          return name;
        }
        json.nextToken();
        json.skipChildren();
      }
      return "";
    } catch (JsonProcessingException notJson) {
      return "";
    }
  }
}

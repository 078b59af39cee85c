package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.samples.truth.GroundTruth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kvscope analyze PATH... --index DIR} ingests and then analyses in one process: the same
 * ingest summary, findings and exposure figures as {@code ingest} followed by {@code analyze}, and
 * the same refusals as {@code ingest} for inputs that hold nothing.
 */
class AnalyzeWithIngestTest {

  @TempDir Path tmp;

  @Test
  void ingestingFirstGivesWhatIngestThenAnalyzeGive() throws Exception {
    Path incident = tmp.resolve("incident");
    GroundTruth truth = CliTestSupport.generated(incident, "--seed", "3", "--scale", "0.05x");
    CliTestSupport.Run ingest = CliTestSupport.run("ingest", incident.toString(), "--index", tmp.resolve("i1").toString(), "-q");
    assertThat(ingest.exitCode()).as(ingest.err()).isZero();
    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", tmp.resolve("i1").toString(), "--out",
        tmp.resolve("r1").toString(), "-q");
    assertThat(analyze.exitCode()).as(analyze.err()).isZero();

    CliTestSupport.Run both = CliTestSupport.run("analyze", incident.toString(), "--index", tmp.resolve("i2").toString(),
        "--out", tmp.resolve("r2").toString(), "-q");
    assertThat(both.exitCode()).as(both.err()).isZero();

    // The ingest's summary comes first (its elapsed time aside), then what analyze alone prints.
    assertThat(withoutTimes(both.out())).startsWith(withoutTimes(ingest.out().replace(tmp.resolve("i1").toString(),
        tmp.resolve("i2").toString()))).endsWith(withoutTimes(analyze.out().replace(tmp.resolve("r1").toString(),
        tmp.resolve("r2").toString()).replace(tmp.resolve("i1").toString(), tmp.resolve("i2").toString())));
    Report separate = ReportJson.read(tmp.resolve("r1/report.json"));
    Report together = ReportJson.read(tmp.resolve("r2/report.json"));
    assertThat(together.summary()).isEqualTo(separate.summary());
    assertThat(together.summary().leakedResponses()).isEqualTo(truth.summary().leakedResponses());
    assertThat(together.findings()).isNotEmpty();
    // Evidence carries hashes keyed per index (each index has its own case key): compared apart from it.
    assertThat(together.findings()).usingRecursiveFieldByFieldElementComparatorIgnoringFields("evidence")
        .isEqualTo(separate.findings());
    assertThat(together.findings()).extracting(f -> f.evidence().getClass())
        .isEqualTo(separate.findings().stream().map(f -> f.evidence().getClass()).toList());
  }

  @Test
  void inputsThatHoldNothingAreRefusedAndNoIndexIsLeft() throws Exception {
    Path empty = Files.createDirectories(tmp.resolve("empty/sub"));
    Path index = tmp.resolve("index");
    CliTestSupport.Run run = CliTestSupport.run("analyze", empty.getParent().toString(), "--index", index.toString(),
        "--out", tmp.resolve("out").toString(), "-q");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(run.err()).contains("nothing to ingest").contains("no index was created");
    CliTestSupport.Run missing = CliTestSupport.run("analyze", tmp.resolve("no-such").toString(), "--index",
        index.toString(), "--out", tmp.resolve("out").toString(), "-q");
    assertThat(missing.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(missing.err()).contains("no such file or folder to ingest");
    assertThat(index).doesNotExist();
    assertThat(tmp.resolve("out")).doesNotExist();
  }

  /** Seconds and rates of the run: the only lines two runs of the same thing may differ in. */
  private static String withoutTimes(String out) {
    return List.of(out.split("\n", -1)).stream()
        .map(line -> line.replaceAll("in [0-9.]+ s(, [0-9.]+ MB read at [0-9.]+ MB/s)?", "in - s")
            .replaceAll("[0-9.]+ ?(ms|s)\\b", "- s"))
        .reduce((a, b) -> a + "\n" + b).orElse("");
  }
}

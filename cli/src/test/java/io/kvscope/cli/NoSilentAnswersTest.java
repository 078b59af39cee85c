package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broken log shipping, a typo or a misread option must never read as "no leak": every such case
 * exits 2 and says what is missing, and the answers people act on (audit, search) say exactly what
 * they matched.
 */
class NoSilentAnswersTest {

  @TempDir static Path shared;
  static Path incident;
  static Path index;

  @BeforeAll
  static void generateAndIngestASmallIncident() {
    incident = shared.resolve("incident");
    index = shared.resolve("index");
    assertThat(CliTestSupport.run("generate", "--out", incident.toString(), "--scale", "0.05x", "--seed", "4").exitCode())
        .isZero();
    CliTestSupport.Run ingest = CliTestSupport.run("ingest", incident.toString(), "--index", index.toString(), "-q");
    assertThat(ingest.exitCode()).as(ingest.err()).isZero();
  }

  @Test
  void ingestingAPathThatDoesNotExistFailsBeforeCreatingTheIndex(@TempDir Path tmp) {
    Path newIndex = tmp.resolve("index");
    CliTestSupport.Run run = CliTestSupport.run("ingest", tmp.resolve("nonexistent").toString(), "--index", newIndex.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(run.err()).contains("no such file or folder").contains("nonexistent");
    assertThat(newIndex).doesNotExist();
  }

  @Test
  void anEmptyFolderOrOneOfUnknownFilesIngestsNothingAndSaysSo(@TempDir Path tmp) throws Exception {
    Files.createDirectories(tmp.resolve("empty"));
    Files.createDirectories(tmp.resolve("junk"));
    Files.writeString(tmp.resolve("junk/notes.txt"), "not a log of any kind\n");

    CliTestSupport.Run empty = CliTestSupport.run("ingest", tmp.resolve("empty").toString(), "--index", tmp.resolve("i1").toString());
    CliTestSupport.Run junk = CliTestSupport.run("ingest", tmp.resolve("junk").toString(), "--index", tmp.resolve("i2").toString());

    assertThat(empty.exitCode()).as("no data is never 'no leak'").isEqualTo(ExitCodes.ERROR);
    assertThat(empty.err()).contains("nothing to ingest").contains("holds no files").contains("no index was created");
    assertThat(empty.out()).isEmpty();
    assertThat(tmp.resolve("i1")).as("no index skeleton").doesNotExist();
    assertThat(junk.err()).contains("holds no requests").contains("no engine logs").contains("nothing usable");
    assertThat(junk.out()).as("no request, no join rate").doesNotContain("100.0%");
    assertThat(junk.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(junk.err()).contains("1 in no format kvscope reads");
  }

  @Test
  void anEmptyFolderLeavesAnExistingIndexAsItWas(@TempDir Path tmp) throws Exception {
    Files.createDirectories(tmp.resolve("empty/nested"));
    Files.createDirectories(tmp.resolve("logs"));
    Files.writeString(tmp.resolve("logs/notes.txt"), "not a log of any kind\n");
    CliTestSupport.run("ingest", tmp.resolve("logs").toString(), "--index", tmp.resolve("index").toString());
    List<String> before = listing(tmp.resolve("index"));

    CliTestSupport.Run empty = CliTestSupport.run("ingest", tmp.resolve("empty").toString(), "--index",
        tmp.resolve("index").toString());

    assertThat(empty.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(empty.err()).contains("holds no files").contains("is unchanged");
    assertThat(listing(tmp.resolve("index"))).isEqualTo(before);
  }

  private static List<String> listing(Path dir) throws java.io.IOException {
    try (var files = Files.walk(dir)) {
      return files.map(p -> dir.relativize(p) + " " + p.toFile().length()).sorted().toList();
    }
  }

  @Test
  void anIndexWithoutRequestsIsNeverAuditedClean(@TempDir Path tmp) throws Exception {
    Files.createDirectories(tmp.resolve("junk"));
    Files.writeString(tmp.resolve("junk/notes.txt"), "not a log of any kind\n");
    CliTestSupport.run("ingest", tmp.resolve("junk").toString(), "--index", tmp.resolve("index").toString());

    CliTestSupport.Run audit = CliTestSupport.run("audit", "--index", tmp.resolve("index").toString());
    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", tmp.resolve("index").toString(),
        "--out", tmp.resolve("reports").toString(), "-q");

    assertThat(audit.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(audit.out()).doesNotContain("clean");
    assertThat(audit.err()).contains("nothing to analyse").contains("holds no requests");
    assertThat(analyze.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(analyze.out()).doesNotContain("No cross-tenant exposure");
  }

  @Test
  void aTimeRangePastAllDataNamesTheRangeTheIndexCovers(@TempDir Path tmp) {
    CliTestSupport.Run run = CliTestSupport.run("analyze", "--index", index.toString(), "--since", "2031-01-01",
        "--out", tmp.resolve("reports").toString(), "-q");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(run.err()).contains("no request starts between 2031-01-01T00:00:00Z and the end")
        .containsPattern("requests start from 2026-\\S+ to 2026-");
    assertThat(tmp.resolve("reports")).doesNotExist();
  }

  @Test
  void humanDurationsAndTimesAreAcceptedAndNonsenseIsExplained(@TempDir Path tmp) {
    CliTestSupport.Run human = CliTestSupport.run("analyze", "--index", index.toString(), "--horizon", "7d",
        "--since", "2026-08-01 00:00", "--until", "now", "--out", tmp.resolve("reports").toString(), "-q");
    CliTestSupport.Run nonsense = CliTestSupport.run("analyze", "--index", index.toString(), "--horizon", "a week");

    assertThat(human.exitCode()).as(human.err()).isZero();
    assertThat(nonsense.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(nonsense.err()).contains("'a week' is not a duration").contains("7d").doesNotContain("Exception");
  }

  @Test
  void noCommandAtAllIsAUsageErrorNotSuccess() {
    CliTestSupport.Run run = CliTestSupport.run();
    assertThat(run.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(run.err()).contains("Usage: kvscope");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void aMistypedCommandGetsASuggestion() {
    CliTestSupport.Run run = CliTestSupport.run("analyz", "--index", index.toString());
    assertThat(run.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(run.err()).contains("Did you mean").contains("kvscope analyze");
  }

  @Test
  void anIncrementalAuditFailsOnlyOnWhatItHasNotReportedBefore() throws Exception {
    Files.deleteIfExists(index.resolve(AuditState.FILE));

    CliTestSupport.Run first = CliTestSupport.run("audit", "--index", index.toString(), "--incremental");
    CliTestSupport.Run second = CliTestSupport.run("audit", "--index", index.toString(), "--incremental");

    assertThat(first.exitCode()).as(first.err()).isEqualTo(ExitCodes.FINDINGS);
    assertThat(first.out()).contains("Failing:").contains("window:").contains("over_length_accepted:chatcmpl-")
        .containsPattern("\\d{4}-\\d\\d-\\d\\dT\\S+Z");
    assertThat(second.exitCode()).as(second.out()).isEqualTo(ExitCodes.OK);
    assertThat(second.out()).contains("nothing failing").contains("reported by an earlier audit").contains("audit: clean");
    Files.deleteIfExists(index.resolve(AuditState.FILE));
  }

  @Test
  void aMisspeltFieldIsAnErrorWithTheRightName() {
    CliTestSupport.Run run = CliTestSupport.run("search", "--index", index.toString(), "statuscode:200");
    CliTestSupport.Run all = CliTestSupport.run("search", "--index", index.toString(), "-n", "0", "*:*");
    assertThat(run.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(run.err()).contains("unknown field 'statuscode'").contains("did you mean status_code?");
    assertThat(all.exitCode()).isZero();
  }

  @Test
  void aDateOnATimeFieldMeansThatDayAndJsonTimesReadLikeTheTable() {
    String firstDay = CliTestSupport.run("search", "--index", index.toString(), "--json", "-n", "1",
        "doc_type:request").out().replaceAll("(?s).*\"start_time\":\"(\\d{4}-\\d\\d-\\d\\d)T.*", "$1");
    assertThat(firstDay).matches("\\d{4}-\\d\\d-\\d\\d");

    CliTestSupport.Run day = CliTestSupport.run("search", "--index", index.toString(), "-n", "0",
        "doc_type:request AND start_time:" + firstDay);
    CliTestSupport.Run range = CliTestSupport.run("search", "--index", index.toString(), "-n", "0",
        "doc_type:request AND start_time:[" + firstDay + " TO " + java.time.LocalDate.parse(firstDay).plusDays(1) + "}");

    assertThat(day.out()).doesNotStartWith("0 matches").isEqualTo(range.out());
  }

  @Test
  void reportingWithoutTheIndexSaysWhatIsLeftOutAndRefusesToRevealNothing(@TempDir Path tmp) {
    Path reports = tmp.resolve("reports");
    assertThat(CliTestSupport.run("analyze", "--index", index.toString(), "--out", reports.toString(), "-q").exitCode())
        .isZero();

    CliTestSupport.Run plain = CliTestSupport.run("report", reports.resolve("report.json").toString(),
        "--out", tmp.resolve("again").toString());
    CliTestSupport.Run reveal = CliTestSupport.run("report", reports.resolve("report.json").toString(), "--reveal",
        "--out", tmp.resolve("revealed").toString());

    assertThat(plain.exitCode()).isZero();
    assertThat(plain.err()).contains("no --index").contains("leave out the leaked-content");
    assertThat(reveal.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(reveal.err()).contains("--reveal needs --index");
    assertThat(reveal.out()).doesNotContain("REVEALED");
  }

  @Test
  void scoringTakesItsTwoFilesInEitherOrder(@TempDir Path tmp) {
    Path reports = tmp.resolve("reports");
    CliTestSupport.run("analyze", "--index", index.toString(), "--out", reports.toString(), "-q");
    String truth = incident.resolve("truth.json").toString();
    String report = reports.resolve("report.json").toString();

    CliTestSupport.Run inOrder = CliTestSupport.run("score", truth, report);
    CliTestSupport.Run swapped = CliTestSupport.run("score", report, truth);
    CliTestSupport.Run wrong = CliTestSupport.run("score", report, report);

    assertThat(swapped.out()).isEqualTo(inOrder.out()).contains("leaked responses");
    assertThat(wrong.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(wrong.err()).contains("is not a truth.json");
  }
}

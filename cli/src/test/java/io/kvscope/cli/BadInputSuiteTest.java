package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.doc.Schema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder of every kind of broken input, ingested through the real command line: the run ends
 * with a per-file problem list, every good record around the bad ones is indexed, and nothing
 * escapes to the user as an exception. It holds the attackers' classes too: extreme numbers and
 * times, keys given twice, hostile file names, kvscope's own outputs. The index is then analyzed
 * (which must end cleanly, with a report of bounded size) and ingested again (files that lost
 * lines are read again, not called unchanged).
 */
class BadInputSuiteTest {

  /** The single-line file: 50 MB, as an incident's multi-megabyte prompts can be. */
  static final int HUGE_LINE_BYTES = 50 * 1024 * 1024;

  @TempDir Path tmp;

  @Test
  void everyBrokenFileIsReportedAndEveryGoodRecordAroundItIsIndexed() throws Exception {
    Path in = tmp.resolve("in");
    Path index = tmp.resolve("index");
    BrokenInputs corpus = new BrokenInputs(in).writeAll(HUGE_LINE_BYTES);

    CliTestSupport.Run run = CliTestSupport.run("ingest", in.toString(), "--index", index.toString(), "--quiet");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertNoEscapedException(run);
    assertThat(run.out()).contains("Ingested ").contains("Problems by file");
    Set<String> held = IndexContents.engineRids(index);
    for (BrokenInputs.Case c : corpus.cases) {
      assertThat(held).as("good records of %s", c.file()).containsAll(c.goodRids());
      if (c.mustBeReported()) {
        assertThat(problemLines(run.out())).as("problem list names %s", c.file())
            .anyMatch(line -> line.startsWith(shown(c.file()) + ": "));
      }
    }
    assertThat(HostileIncident.rawControls(run.out() + run.err())).as("raw control characters printed").isEmpty();
    // kvscope's own outputs: skipped, said so, not problems, their rows not records.
    assertThat(run.out()).contains("kvscope output, not evidence: " + corpus.ownOutputs.size() + " skipped");
    for (Path own : corpus.ownOutputs) {
      assertThat(problemLines(run.out())).noneMatch(line -> line.startsWith(own + ": "));
    }
    assertThat(held).doesNotContain("rid-18000", "rid-18001");
    assertThat(problemLines(run.out())).filteredOn(line -> line.startsWith(in.resolve("gateway/duplicate-keys.jsonl") + ": "))
        .singleElement().asString().contains("appears twice in one object");
    for (String link : List.of("self", "a", "b", "dangling.jsonl")) {
      assertThat(problemLines(run.out())).as("problem list names the link %s", link)
          .anyMatch(line -> line.startsWith(in.resolve("links").resolve(link) + ": "));
    }
    // Where every line is a record of the file's format or a reported bad line, none vanishes.
    for (BrokenInputs.Case c : corpus.cases) {
      if (c.accounted()) {
        assertThat(recordsPlusBad(run, c.file())).as("records + bad lines of %s", c.file()).isEqualTo(c.lines());
      }
    }
    // Nothing was indexed twice although links point back into the folder.
    assertThat(IndexContents.documents(index)).isNotEmpty();
    assertThat(IndexContents.checkIndexClean(index)).isTrue();
    // The huge prompt is there in full.
    try (var search = io.kvscope.index.IndexSearch.open(index)) {
      var doc = search.search("request_id:gw-4001", 1).documents().get(0);
      assertThat(Long.parseLong(doc.get(Schema.PROMPT_CHARS))).isGreaterThanOrEqualTo(HUGE_LINE_BYTES);
    }

    // Whatever survived ingest, analysis ends cleanly and its charts stay small.
    Path reports = tmp.resolve("reports");
    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", index.toString(), "--out", reports.toString(), "--quiet");
    assertThat(analyze.exitCode()).as(analyze.err()).isZero();
    assertNoEscapedException(analyze);
    assertThat(Files.size(reports.resolve("report.html"))).isLessThan(5L << 20);

    // A file that lost lines (cut archives, a bad checksum) is read again next time, never "unchanged".
    CliTestSupport.Run again = CliTestSupport.run("ingest", in.toString(), "--index", index.toString(), "--quiet");
    for (String lost : List.of("gateway/truncated.jsonl.gz", "gateway/truncated.jsonl.zst", "gateway/bad-checksum.jsonl.zst")) {
      assertThat(problemLines(again.out())).as("the second run names %s again", lost)
          .anyMatch(line -> line.startsWith(in.resolve(lost) + ": "));
    }
  }

  /** A path as the summary shows it. */
  static String shown(Path file) {
    return io.kvscope.ingest.Printable.text(file.toString());
  }

  static void assertNoEscapedException(CliTestSupport.Run run) {
    for (String stream : List.of(run.out(), run.err())) {
      assertThat(stream).doesNotContain("\tat ").doesNotContain("Exception in thread")
          .doesNotContainPattern("(?m)^kvscope: ");
    }
  }

  /** The lines of the per-file problem list, without their indent. */
  static List<String> problemLines(String out) {
    int start = out.indexOf("Problems by file");
    if (start < 0) {
      return List.of();
    }
    return out.substring(start).lines().skip(1).takeWhile(l -> l.startsWith("  ")).map(String::strip).toList();
  }

  /** From the problem list: records read plus bad lines of one file. */
  static long recordsPlusBad(CliTestSupport.Run run, Path file) {
    String line = problemLines(run.out()).stream().filter(l -> l.startsWith(shown(file) + ": ")).findFirst().orElseThrow();
    Matcher m = Pattern.compile(": ([0-9,]+) records?, ([0-9,]+) bad").matcher(line);
    assertThat(m.find()).as(line).isTrue();
    return Long.parseLong(m.group(1).replace(",", "")) + Long.parseLong(m.group(2).replace(",", ""));
  }
}

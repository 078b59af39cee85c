package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.ZstdOutputStream;
import io.kvscope.model.finding.Finding;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.report.ReportJson;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kvscope's own files are results, never evidence: an analysis written into a folder inside the
 * incident folder (the common case), a revealed one, a renamed and compressed findings.arrow, one
 * with two bytes changed (its mark and a column name), a copied quarantine file, the generator's truth.json and an older case's index, all re-ingested
 * with the logs, change no document of the index and no finding of the next analysis.
 */
class OwnOutputsReingestTest {

  @TempDir Path tmp;

  @Test
  void reIngestingAFolderThatHoldsKvscopesOwnOutputsChangesNoFinding() throws Exception {
    Path in = tmp.resolve("incident");
    Path index = tmp.resolve("index");
    assertThat(CliTestSupport.run("generate", "--out", in.toString(), "--seed", "5", "--scale", "0.1x").exitCode()).isZero();
    // A cut gateway line, so that the index has a quarantine file to copy.
    Files.writeString(in.resolve("gateway/cut.jsonl"), FleetFiles.litellm(1, "org-x", 10, "hello") + "\n{\"id\":\"cut\n");
    ingest(in, index);
    Map<String, String> documents = IndexContents.documents(index);
    Report before = analyze(index, in.resolve("reports"));
    assertThat(before.summary().leakedResponses()).as("the incident has leaks to lose").isPositive();
    assertThat(CliTestSupport.run("analyze", "--index", index.toString(), "--out", in.resolve("revealed").toString(),
        "--reveal", "--quiet").exitCode()).isZero();
    // Renamed and packed: recognised by content, not by name.
    try (OutputStream out = new ZstdOutputStream(Files.newOutputStream(in.resolve("gateway/export-2026.bin.zst")))) {
      Files.copy(in.resolve("reports/findings.arrow"), out);
    }
    // Two bytes changed, one in the mark and one in a column the old rule knew it by: still a result.
    byte[] damaged = Files.readAllBytes(in.resolve("reports/findings.arrow"));
    damage(damaged, "kvscope.output");
    damage(damaged, "kind");
    Files.write(in.resolve("gateway/damaged.arrow"), damaged);
    try (Stream<Path> quarantine = Files.list(index.resolve("quarantine"))) {
      copy(quarantine.findFirst().orElseThrow(), in.resolve("gateway/bad-lines.jsonl"));
    }
    Path oldCase = in.resolve("case-0/index");
    ingest(in.resolve("engine"), oldCase);

    CliTestSupport.Run again = CliTestSupport.run("ingest", in.toString(), "--index", index.toString(), "--quiet");

    assertThat(again.exitCode()).isZero();
    assertThat(again.out()).contains("kvscope output, not evidence: ").doesNotContain("arrow  ");
    assertThat(ownOutputCount(again.out())).as(again.out())
        .isEqualTo(files(in.resolve("reports")) + files(in.resolve("revealed")) + 1 /* truth.json */
            + 1 /* packed arrow */ + 1 /* damaged arrow */ + 1 /* quarantine copy */ + 1 /* old index */);
    assertThat(IndexContents.documents(index)).as("no document changed").isEqualTo(documents);
    Report after = analyze(index, in.resolve("reports"));
    assertThat(findings(after)).isEqualTo(findings(before));
    assertThat(after.summary()).isEqualTo(before.summary());
  }

  /** Changes the first byte of the first occurrence of {@code ascii} in {@code bytes}. */
  private static void damage(byte[] bytes, String ascii) {
    byte[] needle = ascii.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    for (int i = 0; i + needle.length <= bytes.length; i++) {
      if (java.util.Arrays.equals(bytes, i, i + needle.length, needle, 0, needle.length)) {
        bytes[i] = 'Q';
        return;
      }
    }
    throw new AssertionError(ascii + " not in the file");
  }

  private static void ingest(Path in, Path index) {
    CliTestSupport.Run run = CliTestSupport.run("ingest", in.toString(), "--index", index.toString(), "--quiet");
    assertThat(run.exitCode()).as(run.err()).isZero();
  }

  private static Report analyze(Path index, Path out) throws Exception {
    CliTestSupport.Run run = CliTestSupport.run("analyze", "--index", index.toString(), "--out", out.toString(), "--quiet");
    assertThat(run.exitCode()).as(run.err()).isZero();
    return ReportJson.read(out.resolve("report.json"));
  }

  /** Each finding as the facts a report states about it. */
  private static List<String> findings(Report report) {
    return report.findings().stream().map(Finding::toString).sorted().toList();
  }

  private static long ownOutputCount(String out) {
    var m = java.util.regex.Pattern.compile("kvscope output, not evidence: ([0-9,]+) skipped").matcher(out);
    assertThat(m.find()).isTrue();
    return Long.parseLong(m.group(1).replace(",", ""));
  }

  private static long files(Path root) throws Exception {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).count();
    }
  }

  private static void copy(Path from, Path to) {
    try {
      Files.copy(from, to);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}

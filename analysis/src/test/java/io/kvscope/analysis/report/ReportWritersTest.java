package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.analysis.impact.Report;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWritersTest {

  @TempDir
  Path dir;

  @Test
  void writesEveryFormatOwnerOnly() throws IOException {
    Path out = dir.resolve("case-4711");
    List<Path> written = ReportWriters.writeAll(IncidentFixture.incident(), out, WriteOptions.defaults());

    assertThat(written).contains(out.resolve("report.json"), out.resolve("findings.csv"), out.resolve("report.md"),
        out.resolve("report.html"), out.resolve("findings.arrow"), out.resolve("findings.ndjson"),
        out.resolve("timesketch.jsonl"), out.resolve("bundles").resolve("globex"));
    try (Stream<Path> all = Files.walk(out)) {
      for (Path p : all.toList()) {
        String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
        assertThat(mode).as(p.toString()).isEqualTo(Files.isDirectory(p) ? "rwx------" : "rw-------");
        assertThat(p.getFileName().toString()).as("no temporary file left").doesNotEndWith(".tmp");
      }
    }
  }

  @Test
  void writesOnlyTheFormatsAsked() throws IOException {
    Path out = dir.resolve("out");
    List<Path> written = ReportWriters.writeAll(IncidentFixture.incident(), out,
        WriteOptions.defaults().withFormats(Set.of(Format.JSON, Format.CSV)));
    assertThat(written).containsExactly(out.resolve("report.json"), out.resolve("findings.csv"));
    try (Stream<Path> files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("report.json", "findings.csv");
    }
  }

  @Test
  void reRenderingFromReportJsonGivesTheSameOutputs() throws IOException {
    Path first = dir.resolve("first");
    Path second = dir.resolve("second");
    WriteOptions options = WriteOptions.defaults().withText(IncidentFixture.texts());
    ReportWriters.writeAll(IncidentFixture.incident(), first, options);

    Report reread = ReportJson.read(first.resolve(ReportJson.FILE_NAME));
    ReportWriters.writeAll(reread, second, options);

    try (Stream<Path> files = Files.walk(first)) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        Path twin = second.resolve(first.relativize(p));
        assertThat(Files.mismatch(p, twin)).as(first.relativize(p).toString()).isEqualTo(-1L);
      }
    }
  }

  @Test
  void theFilesThatShareOneRenderingOfTheEvidenceEqualEachFileWrittenAlone() throws IOException {
    // Evidence as the analyzers give it, records (the fixture's are maps), a different one for each finding.
    Report fixture = IncidentFixture.incident();
    List<Finding> typed = new ArrayList<>();
    for (Finding f : fixture.findings()) {
      typed.add(f.withEvidence(new Evidence.Timing(null, null, null, 700_000L + typed.size(), 38_400L, 41L, 0.001)));
    }
    Report report = new Report(fixture.reportVersion(), fixture.generatedAt(), fixture.index(), fixture.summary(),
        fixture.windows(), typed, fixture.tenants(), fixture.matrix(), fixture.timeline(), fixture.dataCategories(),
        fixture.coverage(), fixture.parameters(), fixture.review(), fixture.evidence());
    assertThat(report.findings()).as("a finding of several rows").anyMatch(f -> f.sources().size() > 1);
    Path together = dir.resolve("together");
    ReportWriters.writeAll(report, together, WriteOptions.defaults());

    Path alone = Files.createDirectories(dir.resolve("alone"));
    List<Path> each = List.of(ReportJson.write(report, alone.resolve(ReportJson.FILE_NAME)),
        FindingsCsv.write(report, alone.resolve(FindingsCsv.FILE_NAME)),
        FindingsArrow.write(report, alone.resolve(FindingsArrow.FILE_NAME)),
        FindingsNdjson.write(report, alone.resolve(FindingsNdjson.FILE_NAME)));
    for (Path file : each) {
      assertThat(Files.mismatch(file, together.resolve(file.getFileName()))).as(file.getFileName().toString())
          .isEqualTo(-1L);
    }
    // And each row carries its own finding's evidence, not another's.
    Map<String, String> evidenceById = new HashMap<>();
    for (Finding f : report.findings()) {
      evidenceById.put(f.id(), JsonValues.compact(ReportJson.fields(f.evidence())));
    }
    ObjectMapper json = new ObjectMapper();
    List<String> lines = Files.readAllLines(together.resolve(FindingsNdjson.FILE_NAME));
    assertThat(lines).hasSizeGreaterThan(report.findings().size());
    for (String line : lines) {
      JsonNode row = json.readTree(line);
      assertThat(row.get("evidence").asText()).isEqualTo(evidenceById.get(row.get("id").asText()));
    }
  }

  @Test
  void anEmptyReportStillWritesEveryFormat() throws IOException {
    Report empty = new Report(Report.REPORT_VERSION, java.time.Instant.parse("2026-09-10T08:00:00Z"), "/idx",
        new io.kvscope.analysis.impact.Summary(0, 0, 0, 0, 0, 0, null, null, 0, 0, 0, 0, 0, 0),
        List.of(), List.of(), List.of(), List.of(), List.of(), java.util.Map.of(), null, java.util.Map.of());
    Path out = dir.resolve("out");
    List<Path> written = ReportWriters.writeAll(empty, out, WriteOptions.defaults().withText(IncidentFixture.texts()));

    assertThat(written).hasSize(7); // no tenant to notify, so no bundle directories
    assertThat(Files.readString(out.resolve("report.md"))).contains("**No cross-tenant exposure found.**")
        .contains("No findings.").contains("Coverage was not measured");
    assertThat(Files.readString(out.resolve("report.html"))).contains("status over")
        .contains("Nothing to draw: no timeline and no windows.");
    assertThat(Files.readString(out.resolve("findings.csv"))).isEqualTo(String.join(",", FindingsCsv.COLUMNS) + "\r\n");
    try (var allocator = new org.apache.arrow.memory.RootAllocator();
         var channel = java.nio.channels.FileChannel.open(out.resolve("findings.arrow"));
         var reader = new org.apache.arrow.vector.ipc.ArrowFileReader(channel, allocator)) {
      assertThat(reader.getVectorSchemaRoot().getSchema()).isEqualTo(FindingsArrow.SCHEMA);
      assertThat(reader.loadNextBatch()).isFalse();
    }
    assertThat(Files.size(out.resolve("findings.ndjson"))).as("no finding, no line").isZero();
    assertThat(ReportJson.read(out.resolve("report.json"))).isEqualTo(empty);
  }

  @Test
  void formatsByName() {
    assertThat(Format.fromId("html")).isEqualTo(Format.HTML);
    assertThat(Format.fromId("findings.arrow")).isEqualTo(Format.ARROW);
    assertThat(Format.fromId("ndjson")).isEqualTo(Format.NDJSON);
    assertThat(Format.fromId("Markdown")).isEqualTo(Format.MARKDOWN);
  }

  /** Every file under {@code root} with its bytes, to compare a folder before and after. */
  private static java.util.Map<Path, String> snapshot(Path root) throws IOException {
    java.util.Map<Path, String> files = new java.util.TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(f -> Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)).toList()) {
        files.put(root.relativize(p), java.util.HexFormat.of().formatHex(
            java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))));
      }
    } catch (java.security.NoSuchAlgorithmException impossible) {
      throw new IllegalStateException(impossible);
    }
    return files;
  }

  @Test
  void aBundlesFolderThatIsALinkIsNeitherFollowedNorChangedAndNothingIsPublished() throws IOException {
    Path out = dir.resolve("out");
    ReportWriters.writeAll(IncidentFixture.incident(), out, WriteOptions.defaults().withFormats(Set.of(Format.JSON)));
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.createSymbolicLink(out.resolve("bundles"), elsewhere);
    var before = snapshot(out);

    assertThatThrownBy(() -> ReportWriters.writeAll(IncidentFixture.incident(), out, WriteOptions.defaults()))
        .isInstanceOf(IOException.class).hasMessageContaining("bundles").hasMessageContaining("symbolic link");

    try (Stream<Path> inside = Files.list(elsewhere)) {
      assertThat(inside).as("nothing written through the link").isEmpty();
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(elsewhere))).isEqualTo("rwxr-xr-x");
    assertThat(snapshot(out)).as("the previous report stands, nothing new published").isEqualTo(before);
  }

  @Test
  void aFolderWhereAFileGoesStopsThePublicationBeforeAnythingMoves() throws IOException {
    Path out = dir.resolve("out");
    ReportWriters.writeAll(IncidentFixture.incident(), out, WriteOptions.defaults().withFormats(Set.of(Format.JSON, Format.ARROW)));
    Files.createDirectories(out.resolve("findings.csv"));
    var before = snapshot(out);

    assertThatThrownBy(() -> ReportWriters.writeAll(IncidentFixture.incident(), out, WriteOptions.defaults()))
        .isInstanceOf(IOException.class).hasMessageContaining("findings.csv").hasMessageContaining("folder");

    assertThat(snapshot(out)).as("all or nothing: neither bundles nor arrow were published").isEqualTo(before);
    assertThat(out.resolve("bundles")).doesNotExist();
  }

  @Test
  void theUsersOwnDotFilesSurviveOnlyKvscopesLeftoversAreRemoved() throws IOException {
    Path out = Files.createDirectories(dir.resolve("out"));
    Files.writeString(out.resolve(".notes.tmp"), "mine");
    Files.writeString(out.resolve(".report.json.123.tmp"), "mine too");
    Files.createDirectories(out.resolve(".staging-drafts"));
    Files.writeString(out.resolve(".staging-drafts/draft.md"), "my draft");
    Files.writeString(out.resolve(".staging-x"), "a file");
    Path killed = Files.createDirectories(out.resolve(".staging-4242"));
    Files.createFile(killed.resolve(ReportWriters.STAGING_MARK));
    Files.writeString(killed.resolve("report.json"), "{}");
    Path killedEarly = Files.createDirectories(out.resolve(".staging-4243"));

    ReportWriters.writeAll(IncidentFixture.incident(), out, WriteOptions.defaults());

    assertThat(out.resolve(".notes.tmp")).hasContent("mine");
    assertThat(out.resolve(".report.json.123.tmp")).hasContent("mine too");
    assertThat(out.resolve(".staging-drafts/draft.md")).hasContent("my draft");
    assertThat(out.resolve(".staging-x")).hasContent("a file");
    assertThat(killed).doesNotExist();
    assertThat(killedEarly).doesNotExist();
  }
}

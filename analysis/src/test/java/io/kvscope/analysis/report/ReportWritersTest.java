package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.impact.Report;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
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
        out.resolve("bundles").resolve("globex"));
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
  void anEmptyReportStillWritesEveryFormat() throws IOException {
    Report empty = new Report(Report.REPORT_VERSION, java.time.Instant.parse("2026-09-10T08:00:00Z"), "/idx",
        new io.kvscope.analysis.impact.Summary(0, 0, 0, 0, 0, 0, null, null, 0, 0, 0),
        List.of(), List.of(), List.of(), List.of(), List.of(), java.util.Map.of(), null, java.util.Map.of());
    Path out = dir.resolve("out");
    List<Path> written = ReportWriters.writeAll(empty, out, WriteOptions.defaults().withText(IncidentFixture.texts()));

    assertThat(written).hasSize(6); // no tenant to notify, so no bundle directories
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
}

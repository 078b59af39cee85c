package io.kvscope.gui.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.analysis.impact.Report;
import io.kvscope.gui.IncidentFixture;
import io.kvscope.gui.ReportJsonFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportJsonReaderTest {

  @TempDir Path dir;

  @Test
  void aReportWrittenInTheSpecShapeReadsBackEqual() throws Exception {
    Report original = IncidentFixture.write(dir.resolve("index"), 12, 3L).report();
    Path file = dir.resolve("report.json");
    ReportJsonFixture.write(original, file);

    Report read = new ReportJsonReader().read(file);

    assertThat(read).isEqualTo(original);
    assertThat(read.findings().get(0).evidence()).isEqualTo(original.findings().get(0).evidence());
  }

  @Test
  void missingSectionsReadAsEmptyAndEpochMillisAreAccepted() throws Exception {
    Path file = dir.resolve("small.json");
    Files.writeString(file, """
        {"report_version": "1.0",
         "findings": [{"id": "canary_leak:r1", "kind": "canary_leak", "confidence": "confirmed",
                       "request_id": "r1", "tenant": "globex", "time": 1788000000000,
                       "sources": [{"request_id": "s1", "tenant": "acme", "matched_tokens": 7,
                                    "spans": [{"response_start": 3, "response_end": 9, "source_field": "prompt_text",
                                               "source_start": 100, "source_end": 106, "tokens": 2}]}]}]}
        """);

    Report read = new ReportJsonReader().read(file);

    assertThat(read.windows()).isEmpty();
    assertThat(read.tenants()).isEmpty();
    assertThat(read.summary().leakedResponses()).isZero();
    assertThat(read.findings()).singleElement().satisfies(f -> {
      assertThat(f.time().toEpochMilli()).isEqualTo(1788000000000L);
      assertThat(f.sources().get(0).spans().get(0).sourceStart()).isEqualTo(100);
    });
  }

  @Test
  void aNewerMajorVersionOrAnUnknownKindIsRefusedNamingTheFile() throws Exception {
    Path newer = dir.resolve("newer.json");
    Files.writeString(newer, "{\"report_version\": \"2.0\"}");
    assertThatThrownBy(() -> new ReportJsonReader().read(newer))
        .isInstanceOf(IOException.class).hasMessageContaining("newer.json").hasMessageContaining("2.0");

    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"findings\": [{\"id\": \"x\", \"kind\": \"no_such_kind\", \"confidence\": \"confirmed\"}]}");
    assertThatThrownBy(() -> new ReportJsonReader().read(bad))
        .isInstanceOf(IOException.class).hasMessageContaining("bad.json");
  }
}

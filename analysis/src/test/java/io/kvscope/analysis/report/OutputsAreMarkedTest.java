package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.KvscopeOutputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every file the report writers produce carries a mark an ingest recognises it by. */
class OutputsAreMarkedTest {

  @TempDir Path dir;

  @Test
  void everyReportFileIsRecognisedAsKvscopeOutput() throws Exception {
    ReportWriters.writeAll(IncidentFixture.incident(), dir.resolve("redacted"), WriteOptions.defaults());
    ReportWriters.writeAll(IncidentFixture.incident(), dir.resolve("revealed"),
        WriteOptions.defaults().withReveal(true).withText(IncidentFixture.texts()));
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    assertThat(files).hasSizeGreaterThan(10);
    for (Path file : files) {
      assertThat(KvscopeOutputs.recognise(new InputFile(file).sniff())).as("%s", dir.relativize(file)).isPresent();
    }
  }

  @Test
  void theColumnsADamagedFindingsTableIsKnownByAreFindingsColumns() {
    // The ingest recognises findings.arrow by these names; a column renamed here without them
    // would let a damaged findings table be read back as request records.
    List<String> columns = Arrays.stream(FindingColumn.values()).map(c -> c.columnName).toList();
    assertThat(columns).containsAll(KvscopeOutputs.FINDINGS_ONLY_COLUMNS);
  }
}

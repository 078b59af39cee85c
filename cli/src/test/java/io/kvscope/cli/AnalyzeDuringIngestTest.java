package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.report.ReportJson;
import io.kvscope.index.store.IndexStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An analysis that runs while an ingest writes the index says so, on stderr and in the report. */
class AnalyzeDuringIngestTest {

  @TempDir Path tmp;

  @Test
  void anAnalysisOfAnIndexBeingWrittenSaysItSawAPartialIndex() throws Exception {
    Path in = tmp.resolve("in");
    Path index = tmp.resolve("index");
    HostileIncident.write(in);
    assertThat(CliTestSupport.run("ingest", in.toString(), "--index", index.toString(), "--quiet").exitCode()).isZero();

    CliTestSupport.Run during;
    try (IndexStore writing = IndexStore.open(index)) { // holds the write lock, as a running ingest does
      during = CliTestSupport.run("analyze", "--index", index.toString(), "--out", tmp.resolve("during").toString(), "--quiet");
    }
    CliTestSupport.Run after = CliTestSupport.run("analyze", "--index", index.toString(), "--out", tmp.resolve("after").toString(),
        "--quiet");

    assertThat(during.exitCode()).isZero();
    assertThat(during.err()).contains("an ingest is writing to").contains("Analyze again when the ingest has ended");
    assertThat(ReportJson.read(tmp.resolve("during/report.json")).parameters()).containsKey("index_being_written");
    assertThat(after.err()).doesNotContain("an ingest is writing");
    assertThat(ReportJson.read(tmp.resolve("after/report.json")).parameters()).doesNotContainKey("index_being_written");
  }
}

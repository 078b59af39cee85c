package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.store.IndexStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The walk of the inputs: what it lists, and what it leaves out as the single-machine walk does. */
class HadoopFilesTest {

  @Test
  void theWalkSkipsAKvscopeIndexAndTheJobsOwnOutputAmongTheInputs(@TempDir Path dir) throws IOException {
    Path input = dir.resolve("case");
    Path gateway = Files.createDirectories(input.resolve("gateway"));
    Files.writeString(gateway.resolve("litellm-a.jsonl"), "{}\n");
    Files.writeString(input.resolve("notes.txt"), "read by the plan, skipped there for its format\n");
    // An old case's index, as kvscope ingest leaves it (its case key and a first commit).
    try (IndexStore store = IndexStore.open(input.resolve("old-index"))) {
      store.commit();
    }
    Path out = input.resolve("scoped");
    Files.createDirectories(out.resolve("records"));
    Files.writeString(out.resolve("records").resolve("part-0.parquet"), "not evidence");
    // A folder of Lucene files that is no kvscope index is walked as any folder.
    Files.createDirectories(input.resolve("other"));
    Files.writeString(input.resolve("other").resolve("segments_1"), "x");

    List<PlannedFile> listed = HadoopFiles.list(List.of(input.toString()), out.toString(), new Configuration());

    assertThat(listed).extracting(PlannedFile::name).containsExactly(input + "/gateway/litellm-a.jsonl",
        input + "/notes.txt", input + "/old-index", input + "/other/segments_1");
    PlannedFile index = listed.get(2);
    assertThat(index.skippedBecause()).isEqualTo(HadoopFiles.OWN_INDEX).startsWith("kvscope's own output");
    assertThat(index.format()).isNull();
    // The plan keeps it skipped without reading it, so the ingest never gets it.
    assertThat(InputPlan.detect(index, IngestSettings.of(io.kvscope.ingest.IngestOptions.defaults()),
        HadoopFiles.Settings.of(new Configuration()))).isEqualTo(index);
    assertThat(listed).filteredOn(f -> f.skippedBecause() == null).allMatch(f -> f.size() > 0);
  }

  @Test
  void anIndexGivenAsTheInputItselfIsNotRead(@TempDir Path dir) throws IOException {
    Path index = dir.resolve("index");
    try (IndexStore store = IndexStore.open(index)) {
      store.commit();
    }
    assertThat(HadoopFiles.list(List.of(index.toString()), null, new Configuration()))
        .singleElement().satisfies(f -> assertThat(f.skippedBecause()).isEqualTo(HadoopFiles.OWN_INDEX));
  }
}

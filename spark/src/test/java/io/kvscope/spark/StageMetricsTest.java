package io.kvscope.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-stage metrics file of the shared local run: a row per timed stage, Spark's figures in it. */
class StageMetricsTest {

  @Test
  void everyStageHasARowOfNonNegativeFigures() throws IOException {
    LocalRun run = LocalRun.shared();
    List<String> lines = Files.readAllLines(Path.of(run.out(), StageMetrics.FOLDER, StageMetrics.FILE));
    assertThat(lines.getFirst()).isEqualTo(StageMetrics.HEADER);
    List<String> columns = Arrays.asList(StageMetrics.HEADER.split(","));
    Map<String, Map<String, Double>> rows = new LinkedHashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",");
      assertThat(cells).hasSize(columns.size());
      Map<String, Double> figures = new LinkedHashMap<>();
      for (int i = 1; i < cells.length; i++) {
        figures.put(columns.get(i), Double.parseDouble(cells[i]));
      }
      assertThat(figures.values()).as(line).allMatch(v -> v >= 0);
      rows.put(cells[0], figures);
    }
    assertThat(rows.keySet()).containsExactlyElementsOf(run.summary().stages().keySet());

    // Every stage but the driver's index runs Spark tasks; the ingest reads the files in them.
    rows.forEach((stage, figures) -> {
      if (!stage.equals("index")) {
        assertThat(figures.get("tasks")).as(stage).isPositive();
        assertThat(figures.get("largest_task_s")).as(stage).isGreaterThanOrEqualTo(figures.get("median_task_s"));
      }
    });
    assertThat(rows.get("ingest").get("executor_cpu_s")).isPositive();
    // The merge shuffles its keys, and the self-join its fingerprint rows.
    assertThat(rows.get("merge").get("shuffle_write_bytes")).isPositive();
    assertThat(rows.get("pairs").get("shuffle_read_bytes")).isPositive();

    // A candidate pair shares at least 2 fingerprints, each one update; each update passed one test.
    Map<String, Double> pairs = rows.get("pairs");
    PairStage.Result join = run.summary().join();
    assertThat(pairs.get("pair_updates")).isEqualTo((double) join.updates()).isGreaterThanOrEqualTo(2.0 * join.pairs());
    assertThat(pairs.get("pair_tests")).isGreaterThanOrEqualTo(pairs.get("pair_updates"));
    assertThat(join.pairs()).isPositive();
  }
}

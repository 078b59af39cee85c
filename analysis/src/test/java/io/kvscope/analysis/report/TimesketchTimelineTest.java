package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.KvscopeOutputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * timesketch.jsonl as Timesketch's JSON-lines import reads it (its guide "Import from JSON or CSV":
 * one object a line with message, an ISO-8601 datetime and timestamp_desc): an event per finding
 * and per window edge, in time order, each finding's id kept, and never taken for evidence by an
 * ingest.
 */
class TimesketchTimelineTest {

  @TempDir Path dir;

  @Test
  void everyFindingAndWindowEdgeIsOneImportableEvent() throws Exception {
    Report report = IncidentFixture.incident();
    Path file = TimesketchTimeline.write(report, dir.resolve(TimesketchTimeline.FILE_NAME));

    ObjectMapper json = new ObjectMapper();
    List<JsonNode> events = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      events.add(json.readTree(line));
    }
    long edges = report.windows().stream().mapToLong(w -> w.end() == null ? 1 : 2).sum();
    long timed = report.findings().stream().filter(f -> f.time() != null).count();
    assertThat(events).hasSize((int) (timed + edges));
    Instant previous = Instant.MIN;
    for (JsonNode e : events) {
      assertThat(e.get("message").asText()).isNotBlank();
      assertThat(e.get("timestamp_desc").asText()).isNotBlank();
      Instant at = Instant.parse(e.get("datetime").asText());
      assertThat(e.get("timestamp").asLong()).isEqualTo(ChronoUnit.MICROS.between(Instant.EPOCH, at));
      assertThat(at).isAfterOrEqualTo(previous);
      previous = at;
    }
    assertThat(events).extracting(e -> e.get("kvscope_id").asText())
        .containsAll(report.findings().stream().filter(f -> f.time() != null).map(f -> f.id()).toList())
        .containsAll(report.windows().stream().filter(w -> w.kind() == Window.Kind.VULNERABLE).map(Window::id).toList());
    assertThat(KvscopeOutputs.recognise(new InputFile(file).sniff())).isPresent();
  }
}

package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.analysis.report.IndexTextSource;
import io.kvscope.analysis.report.TextSource;
import io.kvscope.index.IndexSearch;
import io.kvscope.samples.truth.GroundTruth;
import io.kvscope.samples.truth.LeakTruth;
import io.kvscope.samples.truth.SourceTruth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The span offsets of findings.ndjson on a generated incident, end to end through the real CLI:
 * each span's recipient range lies on a fragment the generator planted in that response
 * (truth.json), and the recipient's and the source's stored texts at the two ranges hold the same
 * words. Nothing but the offsets being checked comes from the analyzer.
 */
class FindingsTableGroundTruthTest {

  @TempDir Path tmp;

  @Test
  void spanOffsetsLandOnTheGeneratorsPlantedFragments() throws Exception {
    Path incident = tmp.resolve("incident");
    Path index = tmp.resolve("index");
    Path reports = tmp.resolve("reports");
    assertThat(CliTestSupport.run("generate", "--out", incident.toString(), "--seed", "4", "--scale", "0.25x").exitCode()).isZero();
    assertThat(CliTestSupport.run("ingest", incident.toString(), "--index", index.toString(), "--quiet").exitCode()).isZero();
    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", index.toString(), "--out", reports.toString(), "--quiet");
    assertThat(analyze.exitCode()).as(analyze.err()).isZero();

    GroundTruth truth = GroundTruth.load(incident.resolve("truth.json"));
    Map<String, List<SourceTruth>> planted = new HashMap<>();
    for (LeakTruth leak : Stream.concat(truth.leakedResponses().stream(), truth.sameTenantReuse().stream()).toList()) {
      planted.computeIfAbsent(leak.requestId(), k -> new ArrayList<>()).addAll(leak.sources());
      planted.get(leak.requestId()).addAll(leak.sameTenantSources());
    }

    ObjectMapper json = new ObjectMapper();
    int spans = 0;
    int counted = 0;
    try (IndexSearch search = IndexSearch.open(index)) {
      TextSource texts = new IndexTextSource(search);
      for (String line : Files.readAllLines(reports.resolve("findings.ndjson"))) {
        JsonNode row = json.readTree(line);
        if (row.get("spans").isNull()) {
          continue;
        }
        String recipient = row.get("request_id").asText();
        String response = texts.text(recipient, TextSource.RESPONSE);
        for (JsonNode span : row.get("spans")) {
          int start = span.get("recipient_utf16_start").asInt();
          int end = span.get("recipient_utf16_end").asInt();
          // A counted finding's span covers what the generator planted; a suspect one (say the same
          // answer to a popular question) is text the tenants really share, so only its words are checked.
          if (row.get("counted").asBoolean()) {
            assertThat(planted.getOrDefault(recipient, List.of()))
                .as("a planted fragment under %s [%d, %d)", recipient, start, end)
                .anySatisfy(f -> assertThat(start < f.responseEnd() && f.responseStart() < end).isTrue());
            counted++;
          }
          String source = texts.text(row.get("source_request_id").asText(), span.get("source_field").asText());
          assertThat(words(source.substring(span.get("source_utf16_start").asInt(), span.get("source_utf16_end").asInt())))
              .as("source text at the source offsets of %s", row.get("id").asText())
              .isEqualTo(words(response.substring(start, end)));
          spans++;
        }
      }
    }
    assertThat(spans).as("spans checked").isPositive();
    assertThat(counted).as("spans of counted findings checked against the truth").isPositive();
  }

  /** The words of a passage as the overlap compares them: case-folded, punctuation and spacing dropped. */
  private static List<String> words(String text) {
    return Stream.of(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")).filter(w -> !w.isEmpty()).toList();
  }
}

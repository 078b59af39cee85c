package io.kvscope.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.TestFiles.Packing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file parsed in batches of lines gives what the whole file gives, wherever it is cut. */
class LineParserTest {

  private static final Ingestors INGESTORS = Ingestors.discover();

  @TempDir Path dir;

  @Test
  void gatewayPayloadsInBatchesAreTheWholeFilesRecordsAndBadLines() throws IOException {
    List<String> lines = List.of(
        Fixtures.line("litellm-tool-calls.json"),
        "",
        "{\"id\": \"cut-short\", \"call_type\": \"acompletion\"",
        Fixtures.line("litellm-failure.json"),
        "[1, 2, 3]",
        Fixtures.line("litellm-tool-calls.json"));

    CollectingSink whole = wholeFile("litellm", "gateway/litellm-2026-08-27.jsonl", lines);

    assertThat(whole.records()).hasSize(3);
    assertThat(whole.badLines()).containsExactly(3L, 5L);
    assertThat(whole.skipped).isEqualTo(1);
    assertEveryCutGivesTheSame("litellm", "gateway/litellm-2026-08-27.jsonl", lines, whole);
  }

  @Test
  void otlpExportBatchesInBatchesAreTheWholeFilesRecordsAndBadLines() throws IOException {
    List<String> lines = List.of(
        Fixtures.line("otlp-details-event.json"),
        "not json at all",
        Fixtures.line("otlp-error-span.json"));

    CollectingSink whole = wholeFile("otlp", "traces/otel-genai-spans.jsonl", lines);

    assertThat(whole.records()).hasSize(2);
    assertThat(whole.badLines()).containsExactly(2L);
    assertEveryCutGivesTheSame("otlp", "traces/otel-genai-spans.jsonl", lines, whole);
  }

  @Test
  void formatsWhoseLinesDependOnEarlierLinesOfferNoLineParser() {
    IngestOptions options = IngestOptions.defaults();
    assertThat(INGESTORS.byName("sglang-log").orElseThrow().lineParser(options)).isEmpty();
    assertThat(INGESTORS.byName("vllm-log").orElseThrow().lineParser(options)).isEmpty();
    assertThat(INGESTORS.byName("litellm-stdout").orElseThrow().lineParser(options)).isEmpty();
  }

  @Test
  void aBatchNeedsItsFileAndALineNumber() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new LineBatch("a.jsonl", 0, List.of("{}")))
        .isInstanceOf(IllegalArgumentException.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new LineBatch(" ", 1, List.of("{}")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private CollectingSink wholeFile(String format, String name, List<String> lines) throws IOException {
    Path file = dir.resolve(name);
    java.nio.file.Files.createDirectories(file.getParent());
    TestFiles.writeLines(file, lines, Packing.PLAIN);
    CollectingSink sink = new CollectingSink();
    Ingestor ingestor = INGESTORS.byName(format).orElseThrow();
    assertThat(INGESTORS.detect(new InputFile(file, name, 0), IngestOptions.defaults())).contains(ingestor);
    ingestor.parse(new InputFile(file, name, 0), IngestOptions.defaults(), sink);
    return sink;
  }

  /** Cuts {@code lines} into batches of every size from 1 to all, each parsed by one parser. */
  private static void assertEveryCutGivesTheSame(String format, String name, List<String> lines, CollectingSink whole) {
    for (int size = 1; size <= lines.size(); size++) {
      LineParser parser = INGESTORS.byName(format).orElseThrow().lineParser(IngestOptions.defaults()).orElseThrow();
      CollectingSink pieces = new CollectingSink();
      for (int from = 0; from < lines.size(); from += size) {
        List<String> batch = new ArrayList<>(lines.subList(from, Math.min(lines.size(), from + size)));
        parser.parse(new LineBatch(name, from + 1, batch), pieces);
      }
      assertThat(pieces.items).as("records, batches of %d lines", size).isEqualTo(whole.items);
      assertThat(pieces.bad).as("bad lines, batches of %d lines", size).isEqualTo(whole.bad);
      assertThat(pieces.badRaw).isEqualTo(whole.badRaw);
      assertThat(pieces.skipped).isEqualTo(whole.skipped);
    }
  }
}

package io.kvscope.ingest.engine.prometheus;

import io.kvscope.ingest.CollectingSink;
import static io.kvscope.ingest.engine.LogFiles.utc;
import static io.kvscope.ingest.engine.LogFiles.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.engine.LogFiles;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrometheusSnapshotIngestorTest {

  @TempDir
  Path dir;

  private CollectingSink parse(Path file, IngestOptions options) throws IOException {
    CollectingSink sink = new CollectingSink();
    new PrometheusSnapshotIngestor().parse(new InputFile(file), options, sink);
    return sink;
  }

  @Test
  void eachNodesGaugesBecomeOneEpoch() throws IOException {
    Path file = write(dir, "scrape-0827.prom", List.of(
        "# HELP sglang:max_total_num_tokens Maximum total number of tokens in the KV cache pool.",
        "# TYPE sglang:max_total_num_tokens gauge",
        "sglang:max_total_num_tokens{engine_type=\"prefill\",instance=\"prefill-0\",model_name=\"kimi-k2\",pp_rank=\"0\",tp_rank=\"0\"} 681280.0",
        "sglang:max_total_num_tokens{engine_type=\"prefill\",instance=\"prefill-0\",model_name=\"kimi-k2\",pp_rank=\"0\",tp_rank=\"1\"} 681216.0",
        "sglang:max_total_num_tokens{engine_type=\"decode\",instance=\"decode-0\",model_name=\"kimi-k2\",tp_rank=\"0\"} 2.4e+06",
        "# HELP sglang:context_len The context length.",
        "# TYPE sglang:context_len gauge",
        "sglang:context_len{engine_type=\"prefill\",instance=\"prefill-0\",model_name=\"kimi-k2\",tp_rank=\"0\"} 1048576.0",
        "sglang:context_len{engine_type=\"decode\",instance=\"decode-0\",model_name=\"kimi-k2\",tp_rank=\"0\"} 1048576.0",
        "# TYPE sglang:page_size gauge",
        "sglang:page_size{engine_type=\"prefill\",instance=\"prefill-0\",model_name=\"kimi-k2\",tp_rank=\"0\"} 64.0",
        "# TYPE sglang:num_aborted_requests_total counter",
        "sglang:num_aborted_requests_total{engine_type=\"prefill\",instance=\"prefill-0\",model_name=\"kimi-k2\"} 155.0",
        "sglang:num_running_reqs{engine_type=\"prefill\",instance=\"prefill-0\"} 3.0",
        "sglang:context_len{engine_type=\"prefill\",instance=\"prefill-0\" 1048576.0",
        "process_cpu_seconds_total 12.5"));
    LogFiles.touch(file, "2026-08-27T12:00:00Z");
    CollectingSink sink = parse(file, IngestOptions.defaults());

    assertThat(sink.bad).extracting(b -> b.line()).containsExactly(15L);
    assertThat(sink.skipped).isEqualTo(2);
    assertThat(sink.epochs()).containsExactly(
        // no sample timestamps and no recorded scrape time: dated by the file, and saying so
        new ConfigEpoch("prefill-0", NodeRole.PREFILL, utc("2026-08-27T12:00:00Z"), 681216L, 1048576L, 64,
            null, null, "kimi-k2", null, null, null, null, "prometheus-file-time", file.toString(), 3),
        new ConfigEpoch("decode-0", NodeRole.DECODE, utc("2026-08-27T12:00:00Z"), 2400000L, 1048576L, null,
            null, null, "kimi-k2", null, null, null, null, "prometheus-file-time", file.toString(), 5));
    assertThat(sink.epochs()).allSatisfy(e -> assertThat(e.startIsFileTime()).isTrue());
  }

  @Test
  void timestampedScrapesAndFileStemNodes() throws IOException {
    Path file = write(dir, "prefill-3.metrics.txt", List.of(
        "sglang:max_total_num_tokens{engine_type=\"unified\"} 681280 1787832000000",
        "sglang:context_len{engine_type=\"unified\"} 1048576 1787832000000",
        "sglang:max_total_num_tokens{engine_type=\"unified\"} 2097152 1787835600000",
        "sglang:context_len{engine_type=\"unified\"} 1048576 1787835600000"));
    CollectingSink sink = parse(file, IngestOptions.defaults());

    assertThat(sink.epochs()).extracting(ConfigEpoch::node, ConfigEpoch::role, ConfigEpoch::start,
            ConfigEpoch::poolTokens)
        .containsExactly(
            tuple("prefill-3", NodeRole.UNIFIED, 1787832000000L, 681280L),
            tuple("prefill-3", NodeRole.UNIFIED, 1787835600000L, 2097152L));

    CollectingSink named = parse(file, IngestOptions.defaults().withNodeName("p3"));
    assertThat(named.epochs()).extracting(ConfigEpoch::node).containsOnly("p3");
  }

  private Path fixture(String name) throws IOException {
    Path target = dir.resolve(name);
    try (var in = getClass().getResourceAsStream("/fixtures/prometheus/" + name)) {
      java.nio.file.Files.copy(in, target);
    }
    return target;
  }

  @Test
  void aFederateDumpIsDatedBySampleTimestampsAndNamesNodesByInstanceOrPod() throws IOException {
    Path file = fixture("federate-2026-09-01.txt");
    LogFiles.touch(file, "2026-12-01T00:00:00Z"); // copied months later: the mtime must not matter
    CollectingSink sink = parse(file, IngestOptions.defaults());

    assertThat(sink.bad).isEmpty();
    assertThat(sink.epochs()).extracting(ConfigEpoch::node, ConfigEpoch::role, ConfigEpoch::start,
            ConfigEpoch::poolTokens, ConfigEpoch::contextLength, ConfigEpoch::source)
        .containsExactlyInAnyOrder(
            tuple("10.20.1.10:30000", NodeRole.PREFILL, 1788220800123L, 681280L, 1048576L, "prometheus"),
            tuple("10.20.1.20:30000", NodeRole.DECODE, 1788220801456L, 1572864L, 1048576L, "prometheus"),
            tuple("sglang-prefill-0", NodeRole.PREFILL, 1788220800123L, null, null, "prometheus"));
    // the pod label beside the instance label: one node, two names
    assertThat(sink.aliases()).extracting(a -> a.node(), a -> a.alias(), a -> a.origin())
        .containsExactly(tuple("sglang-prefill-0", "10.20.1.10:30000", io.kvscope.ingest.record.AliasOrigin.PROMETHEUS));
  }

  @Test
  void aRawScrapeIsDatedByTheScrapeTimeItRecords() throws IOException {
    Path file = fixture("sglang-prefill-0.metrics");
    LogFiles.touch(file, "2026-12-01T00:00:00Z");
    CollectingSink sink = parse(file, IngestOptions.defaults());

    assertThat(sink.epochs()).singleElement().satisfies(e -> {
      assertThat(e.node()).isEqualTo("sglang-prefill-0");
      assertThat(e.start()).isEqualTo(utc("2026-09-01T12:00:05Z"));
      assertThat(e.source()).isEqualTo("prometheus");
      assertThat(e.poolTokens()).isEqualTo(681280L);
      assertThat(e.contextLength()).isEqualTo(1048576L);
    });
    assertThat(sink.skipped).as("the scrape-time comment is read, not skipped").isZero();
  }

  @Test
  void aScrapeTimeInTheFileNameDatesARawScrape() throws IOException {
    Path file = dir.resolve("prefill-7-metrics-20260902T061500Z.prom");
    java.nio.file.Files.copy(fixture("sglang-prefill-0.metrics"), file);
    java.nio.file.Files.writeString(file, java.nio.file.Files.readString(file).replace("# scraped at", "# saved"));
    CollectingSink sink = parse(file, IngestOptions.defaults());

    assertThat(sink.epochs()).singleElement().satisfies(e -> {
      assertThat(e.start()).isEqualTo(utc("2026-09-02T06:15:00Z"));
      assertThat(e.source()).isEqualTo("prometheus");
    });
  }

  @Test
  void aSizeThatIsNaNInfiniteOrNegativeIsABadLineNamingTheGauge() throws IOException {
    Path file = write(dir, "prefill-0-20260902T061500Z.prom", List.of(
        "sglang:max_total_num_tokens{engine_type=\"prefill\",tp_rank=\"0\"} NaN",
        "sglang:max_total_num_tokens{engine_type=\"prefill\",tp_rank=\"1\"} -681280",
        "sglang:context_len{engine_type=\"prefill\",tp_rank=\"0\"} +Inf",
        "sglang:max_total_num_tokens{engine_type=\"prefill\",tp_rank=\"2\"} 681280",
        "sglang:context_len{engine_type=\"prefill\",tp_rank=\"1\"} 1048576"));
    CollectingSink sink = parse(file, IngestOptions.defaults());

    assertThat(sink.bad).extracting(b -> b.line()).containsExactly(1L, 2L, 3L);
    assertThat(sink.bad).extracting(b -> b.reason()).containsExactly(
        "sglang:max_total_num_tokens is NaN, which is no size: the sample is not used",
        "sglang:max_total_num_tokens is negative, which is no size: the sample is not used",
        "sglang:context_len is infinite, which is no size: the sample is not used");
    assertThat(sink.epochs()).singleElement().satisfies(e -> {
      assertThat(e.node()).as("the save time is no part of the node name").isEqualTo("prefill-0");
      assertThat(e.poolTokens()).isEqualTo(681280L);
      assertThat(e.contextLength()).isEqualTo(1048576L);
    });
  }
}

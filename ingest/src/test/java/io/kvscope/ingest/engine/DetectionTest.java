package io.kvscope.ingest.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestor;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registered ingestors pick engine files by what is in them, whatever they are called. */
class DetectionTest {

  @TempDir
  Path dir;

  private static final List<String> SGLANG = List.of(
      "[2026-08-27 09:59:58] server_args=ServerArgs(model_path='/m', context_length=1048576, disaggregation_mode='prefill')",
      "[2026-08-27 10:00:01 TP0] max_total_num_tokens=681280, chunked_prefill_size=8192, context_len=1048576",
      "[2026-08-27 10:05:00.350 DP0 TP0] Prefill batch, #new-seq: 1, #new-token: 2048, #cached-token: 0");
  private static final List<String> SGLANG_JSON = List.of(
      "{\"timestamp\": \"2026-08-27T10:05:00.123456\", \"event\": \"request.received\", \"rid\": \"r\", \"obj\": {}}");
  private static final List<String> VLLM = List.of(
      "(APIServer pid=1) INFO 08-27 10:00:01 [api_server.py:1272] vLLM API server version 0.10.1",
      "(EngineCore_0 pid=2) INFO 08-27 10:02:10 [kv_cache_utils.py:1087] GPU KV cache size: 200,704 tokens");
  private static final List<String> PROMETHEUS = List.of(
      "# HELP sglang:max_total_num_tokens Maximum total number of tokens.",
      "# TYPE sglang:max_total_num_tokens gauge",
      "sglang:max_total_num_tokens{engine_type=\"prefill\"} 681280.0");

  private Optional<String> detect(Path file) throws IOException {
    return Ingestors.discover().detect(new InputFile(file), IngestOptions.defaults()).map(Ingestor::name);
  }

  @Test
  void engineIngestorsAreRegistered() {
    assertThat(Ingestors.discover().all()).extracting(Ingestor::name)
        .contains("sglang-log", "vllm-log", "prometheus");
  }

  @Test
  void picksByContentNotByName() throws IOException {
    assertThat(detect(LogFiles.write(dir, "metrics.prom", SGLANG))).contains("sglang-log");
    assertThat(detect(LogFiles.write(dir, "node.json", SGLANG))).contains("sglang-log");
    assertThat(detect(LogFiles.write(dir, "requests.log", SGLANG_JSON))).contains("sglang-log");
    assertThat(detect(LogFiles.write(dir, "sglang-prefill.log", VLLM))).contains("vllm-log");
    assertThat(detect(LogFiles.write(dir, "server.jsonl", PROMETHEUS))).contains("prometheus");
    assertThat(detect(LogFiles.writeGzip(dir, "archive.bin", SGLANG))).contains("sglang-log");
    assertThat(detect(LogFiles.writeGzip(dir, "x.log.gz", VLLM))).contains("vllm-log");
  }

  @Test
  void leavesOtherFilesAlone() throws IOException {
    Path notes = LogFiles.write(dir, "decode-0.log", List.of(
        "some notes about Prefill batch sizes and max_total_num_tokens=5",
        "2026-08-27 10:00:01 INFO nothing bracketed here"));
    assertThat(new io.kvscope.ingest.engine.sglang.SglangLogIngestor()
        .detect(new InputFile(notes).sniff(), IngestOptions.defaults())).isZero();
    assertThat(new io.kvscope.ingest.engine.vllm.VllmLogIngestor()
        .detect(new InputFile(notes).sniff(), IngestOptions.defaults())).isZero();
    assertThat(new io.kvscope.ingest.engine.prometheus.PrometheusSnapshotIngestor()
        .detect(new InputFile(notes).sniff(), IngestOptions.defaults())).isZero();
  }
}

package io.kvscope.ingest.engine.vllm;

import io.kvscope.ingest.CollectingSink;
import static io.kvscope.ingest.engine.LogFiles.utc;
import static io.kvscope.ingest.engine.LogFiles.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.engine.LogFiles;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.NodeActivity;
import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VllmLogIngestorTest {

  @TempDir
  Path dir;

  private CollectingSink parse(Path file) throws IOException {
    CollectingSink sink = new CollectingSink();
    new VllmLogIngestor().parse(new InputFile(file), IngestOptions.defaults(), sink);
    return sink;
  }

  @Test
  void startupLinesBecomeAnEpochAndOverLengthErrorsRejections() throws IOException {
    Path file = write(dir, "vllm-a.log", List.of(
        "INFO 08-27 09:59:50 [__init__.py:241] Automatically detected platform cuda.",                 // 1 skipped
        "(APIServer pid=1017428) INFO 08-27 10:00:01 [api_server.py:1272] vLLM API server version 0.10.1.1", // 2
        "(APIServer pid=1017428) INFO 08-27 10:00:01 [utils.py:263] non-default args: {'model_tag': "
            + "'Qwen/Qwen3-235B-A22B', 'port': 8080, 'model': 'Qwen/Qwen3-235B-A22B', 'max_model_len': 262144, "
            + "'served_model_name': ['qwen3'], 'tensor_parallel_size': 8}",                            // 3
        "(EngineCore_0 pid=1017500) INFO 08-27 10:00:40 [core.py:74] Initializing a V1 LLM engine (v0.10.1.1) "
            + "with config: model='Qwen/Qwen3-235B-A22B', speculative_config=None, tokenizer='Qwen/Qwen3-235B-A22B', "
            + "max_seq_len=262144, download_dir=None, served_model_name=qwen3, enable_prefix_caching=True", // 4
        "(EngineCore_0 pid=1017500) INFO 08-27 10:02:10 [kv_cache_utils.py:1087] GPU KV cache size: 200,704 tokens", // 5
        "(EngineCore_0 pid=1017500) INFO 08-27 10:02:10 [kv_cache_utils.py:1091] Maximum concurrency for "
            + "262,144 tokens per request: 0.77x",                                                     // 6
        "(APIServer pid=1017428) INFO 08-27 10:05:00 [loggers.py:123] Engine 000: Avg prompt throughput: "
            + "1200.5 tokens/s, Avg generation throughput: 80.1 tokens/s, Running: 3 reqs, Waiting: 0 reqs, "
            + "GPU KV cache usage: 41.0%, Prefix cache hit rate: 12.5%",                               // 7
        "(APIServer pid=1017428) INFO 08-27 10:06:00 [logger.py:41] Received request chatcmpl-9: prompt: "
            + "'SECRET This model\\'s maximum context length is 5 tokens. However, your request has 9 input tokens.'", // 8 id only
        "(APIServer pid=1017428) ERROR 08-27 10:06:01 [serving_chat.py:222] Error in preprocessing prompt inputs", // 9 skipped
        "Traceback (most recent call last):",                                                          // 10 skipped
        "ValueError: This model's maximum context length is 262144 tokens. However, your request has 300000 "
            + "input tokens. Please reduce the length of the input messages.",                        // 11
        "(APIServer pid=1017428) ERROR 08-27 10:07:00 [serving_completion.py:150] The decoder prompt (length "
            + "270000) is longer than the maximum model length of 262144. Make sure that `max_model_len` is no "
            + "smaller than the number of text tokens.",                                              // 12
        "WARNING 08-27 10:08:00 scheduler.py:693] Input prompt (280000 tokens) is too long and exceeds limit of 262144", // 13 old prefix
        "(APIServer pid=1017428) ERROR 08-27 10:09:00 [serving_chat.py:222] This model's maximum context length "
            + "is 262144 tokens. However, you requested 263000 tokens (262000 in the messages, 1000 in the "
            + "completion). Please reduce the length of the messages or completion."));                // 14
    LogFiles.touch(file, "2026-09-10T00:00:00Z");
    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.skipped).isEqualTo(3);
    assertThat(sink.epochs()).containsExactly(new ConfigEpoch("vllm-a", NodeRole.UNIFIED,
        utc("2026-08-27T10:00:01Z"), 200704L, 262144L, null, "0.10.1.1", "Qwen/Qwen3-235B-A22B", "qwen3",
        null, null, null, null, "vllm-log", file.toString(), 2));
    assertThat(sink.epochs().get(0).poolBelowContext()).isTrue();

    assertThat(sink.events(EngineEvent.Kind.RECEIVED)).singleElement().satisfies(e -> {
      assertThat(e.rid()).as("the response id without chatcmpl-, the join key").isEqualTo("9");
      assertThat(e.sourceLine()).isEqualTo(8);
      assertThat(e.inputLen()).isNull();
    });
    assertThat(sink.events(EngineEvent.Kind.REJECTED)).allSatisfy(e -> {
      assertThat(e.role()).isEqualTo(NodeRole.UNIFIED);
      assertThat(e.rid()).isNull();
    });
    assertThat(sink.events(EngineEvent.Kind.REJECTED)).extracting(EngineEvent::requestedLen, EngineEvent::limit, EngineEvent::time,
            EngineEvent::sourceLine)
        .containsExactly(
            tuple(300000L, 262144L, utc("2026-08-27T10:06:01Z"), 11L),
            tuple(270000L, 262144L, utc("2026-08-27T10:07:00Z"), 12L),
            tuple(280000L, 262144L, utc("2026-08-27T10:08:00Z"), 13L),
            tuple(262000L, 262144L, utc("2026-08-27T10:09:00Z"), 14L));
    assertThat(sink.allRecordText()).doesNotContain("SECRET");
    assertThat(sink.activity()).extracting(NodeActivity::hourStart, NodeActivity::lines)
        .containsExactly(tuple(utc("2026-08-27T09:00:00Z"), 1L), tuple(utc("2026-08-27T10:00:00Z"), 13L));
  }

  @Test
  void combinedCapacityLineAndARestartGiveTwoEpochs() throws IOException {
    Path file = write(dir, "vllm-b.log", List.of(
        "INFO 08-28 07:00:00 [api_server.py:912] vLLM API server version 0.9.2",
        "INFO 08-28 07:01:00 [kv_cache_utils.py:716] GPU KV cache size: 1,048,576 tokens, Maximum concurrency "
            + "for 131,072 tokens per request: 8.00x",
        "INFO 08-28 09:00:00 [api_server.py:912] vLLM API server version 0.10.0",
        "INFO 08-28 09:00:01 [api_server.py:913] args: Namespace(subparser='serve', model_tag='m/x', "
            + "config='', host=None, port=8000, max_model_len=None, block_size=32, served_model_name=None)",
        "INFO 08-28 09:00:05 [config.py:1604] Using max model len 131072",
        "INFO 08-28 09:01:00 [kv_cache_utils.py:716] GPU KV cache size: 99,000 tokens",
        "INFO 08-28 09:01:00 [kv_cache_utils.py:716] Maximum concurrency for 131,072 tokens per request: 0.76x"));
    LogFiles.touch(file, "2026-08-28T10:00:00Z");
    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.epochs()).extracting(ConfigEpoch::start, ConfigEpoch::engineVersion, ConfigEpoch::poolTokens,
            ConfigEpoch::contextLength, ConfigEpoch::pageSize, ConfigEpoch::model)
        .containsExactly(
            tuple(utc("2026-08-28T07:00:00Z"), "0.9.2", 1048576L, 131072L, null, null),
            tuple(utc("2026-08-28T09:00:00Z"), "0.10.0", 99000L, 131072L, 32, "m/x"));
  }

  @Test
  void yearComesFromTheFilesLastWriteAcrossNewYear() throws IOException {
    Path file = write(dir, "vllm-c.log", List.of(
        "INFO 12-31 23:59:59 [api_server.py:912] vLLM API server version 0.10.0",
        "ERROR 01-01 00:00:05 [serving_chat.py:1] The prompt (total length 9000) is too long to fit into the "
            + "model (context length 8192). Make sure that `max_model_len` is no smaller than the number of text "
            + "tokens plus multimodal tokens."));
    LogFiles.touch(file, "2027-01-01T00:10:00Z");
    CollectingSink sink = parse(file);

    assertThat(sink.epochs().get(0).start()).isEqualTo(utc("2026-12-31T23:59:59Z"));
    assertThat(sink.events().get(0).time()).isEqualTo(utc("2027-01-01T00:00:05Z"));
    assertThat(sink.events().get(0).requestedLen()).isEqualTo(9000L);
    assertThat(sink.events().get(0).limit()).isEqualTo(8192L);
  }

  @Test
  void malformedKnownLinesAreReportedAndTheRestKept() throws IOException {
    Path file = write(dir, "vllm-d.log", List.of(
        "INFO 08-27 10:00:01 [api_server.py:1] vLLM API server version 0.10.0",
        "INFO 08-27 10:00:02 [kv_cache_utils.py:1] GPU KV cache size: many tokens",
        "INFO 13-45 10:00:03 [x.py:1] anything",
        "INFO 08-27 10:00:04 [utils.py:1] non-default args: {'model_tag': 'm', 'max_model_len': 40",
        "INFO 08-27 10:00:05 [kv_cache_utils.py:1] GPU KV cache size: 5,000 tokens",
        "INFO 08-27 10:00:05 [kv_cache_utils.py:1] Maximum concurrency for 4,096 tokens per request: 1.22x"));
    LogFiles.touch(file, "2026-09-01T00:00:00Z");
    CollectingSink sink = parse(file);

    assertThat(sink.bad).extracting(b -> b.line()).containsExactly(2L, 3L, 4L);
    assertThat(sink.epochs()).extracting(ConfigEpoch::poolTokens, ConfigEpoch::contextLength)
        .containsExactly(tuple(5000L, 4096L));
  }

  @Test
  void perRequestLinesOfEveryVersionGiveTheRequestIdAndOutcomeAndNeverTheText() throws IOException {
    Path file = write(dir, "vllm-b.log", List.of(
        // 0.9: RequestLogger.log_inputs with the prompt
        "INFO 08-27 10:00:00 [logger.py:39] Received request chatcmpl-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: prompt: "
            + "'<|im_start|>user\\nSECRET alice@example.com<|im_end|>', params: SamplingParams(n=1, max_tokens=512), "
            + "prompt_token_ids: [151644, 872, 198], prompt_embeds shape: None, lora_request: None, "
            + "prompt_adapter_request: None.",                                                             // 1
        // V0 engine's request tracker
        "INFO 08-27 10:00:00 [async_llm_engine.py:211] Added request chatcmpl-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.", // 2
        "INFO 08-27 10:00:04 [async_llm_engine.py:179] Finished request chatcmpl-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.", // 3
        "INFO 08-27 10:00:05 [async_llm_engine.py:186] Aborted request chatcmpl-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.", // 4
        // 0.10+: params only; the V1 engine's internal id carries 8 random hex characters
        "(APIServer pid=7) INFO 08-27 10:01:00 [logger.py:43] Received request chatcmpl-cccccccccccccccccccccccccccccccc: "
            + "params: SamplingParams(n=1, max_tokens=64), lora_request: None.",                          // 5
        "(APIServer pid=7) INFO 08-27 10:01:00 [async_llm.py:270] Added request "
            + "chatcmpl-cccccccccccccccccccccccccccccccc-1a2b3c4d.",                                       // 6
        "(APIServer pid=7) INFO 08-27 10:01:02 [logger.py:71] Generated response "
            + "chatcmpl-cccccccccccccccccccccccccccccccc (streaming delta): output: 'SECRET', output_token_ids: [1], "
            + "finish_reason: None",                                                                        // 7
        "(APIServer pid=7) INFO 08-27 10:01:03 [logger.py:71] Generated response "
            + "chatcmpl-cccccccccccccccccccccccccccccccc (streaming complete): output: 'SECRET finish_reason: stop', "
            + "output_token_ids: [1, 2], finish_reason: length",                                          // 8
        "(APIServer pid=7) INFO 08-27 10:02:00 [async_llm.py:344] Request chatcmpl-dddddddddddddddddddddddddddddddd "
            + "failed (bad request).",                                                                     // 9
        "(APIServer pid=7) INFO 08-27 10:02:30 [async_llm.py:330] Request chatcmpl-eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee "
            + "aborted.",                                                                                  // 10
        // a completion's per-choice id
        "(APIServer pid=7) INFO 08-27 10:03:00 [logger.py:43] Received request cmpl-ffffffffffffffffffffffffffffffff-0: "
            + "params: SamplingParams(n=1, max_tokens=16), lora_request: None.",                          // 11
        "(APIServer pid=7) INFO 08-27 10:03:01 [logger.py:43] Request length is fine, nothing to read here."));   // 12
    LogFiles.touch(file, "2026-09-10T00:00:00Z");
    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.events()).extracting(EngineEvent::kind, EngineEvent::rid, EngineEvent::finishReason,
            EngineEvent::sourceLine)
        .containsExactly(
            tuple(EngineEvent.Kind.RECEIVED, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", null, 1L),
            tuple(EngineEvent.Kind.RECEIVED, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", null, 2L),
            tuple(EngineEvent.Kind.FINISHED, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", null, 3L),
            tuple(EngineEvent.Kind.FINISHED, "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "abort", 4L),
            tuple(EngineEvent.Kind.RECEIVED, "cccccccccccccccccccccccccccccccc", null, 5L),
            tuple(EngineEvent.Kind.RECEIVED, "cccccccccccccccccccccccccccccccc", null, 6L),
            tuple(EngineEvent.Kind.FINISHED, "cccccccccccccccccccccccccccccccc", "length", 8L),
            tuple(EngineEvent.Kind.REJECTED, "dddddddddddddddddddddddddddddddd", null, 9L),
            tuple(EngineEvent.Kind.FINISHED, "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "abort", 10L),
            tuple(EngineEvent.Kind.RECEIVED, "cmpl-ffffffffffffffffffffffffffffffff", null, 11L));
    assertThat(sink.events()).allSatisfy(e -> assertThat(e.node()).isEqualTo("vllm-b"));
    assertThat(sink.allRecordText()).doesNotContain("SECRET").doesNotContain("alice@example.com");
    assertThat(sink.skipped).isEqualTo(1);
  }
}

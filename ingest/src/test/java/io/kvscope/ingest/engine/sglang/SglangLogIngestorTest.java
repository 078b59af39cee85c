package io.kvscope.ingest.engine.sglang;

import io.kvscope.ingest.CollectingSink;
import static io.kvscope.ingest.engine.LogFiles.utc;
import static io.kvscope.ingest.engine.LogFiles.write;
import static io.kvscope.ingest.engine.sglang.SglangLines.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.engine.LogFiles;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.EngineEvent.Kind;
import io.kvscope.ingest.record.NodeActivity;
import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SglangLogIngestorTest {

  private static final long ROOM = 6593551520068383758L;

  @TempDir
  Path dir;

  private final SglangLogIngestor ingestor = new SglangLogIngestor();

  private CollectingSink parse(Path file) throws IOException {
    return parse(file, IngestOptions.defaults());
  }

  private CollectingSink parse(Path file, IngestOptions options) throws IOException {
    CollectingSink sink = new CollectingSink();
    ingestor.parse(new InputFile(file), options, sink);
    return sink;
  }

  private static List<String> prefillLog() {
    return List.of(
        serverArgs("2026-08-27 09:59:58", "prefill", 1048576L,
            "kv_canary=None, disaggregation_enable_kv_checksum=False, "),                       // 1
        "[2026-08-27 09:59:59 TP0] Load weight begin. avail mem=60.87 GB",                      // 2 skipped
        kvAllocated("2026-08-27 10:00:00", "TP0", 681280),                                      // 3
        kvAllocated("2026-08-27 10:00:00", "TP1", 681280),                                      // 4
        maxTotal("2026-08-27 10:00:01", 681280, 1048576),                                       // 5
        "[2026-08-27 10:00:02] INFO:     Started server process [1234]",                        // 6 skipped
        prefillBatch("2026-08-27 10:05:00.350"),                                                // 7
        prefillStats("2026-08-27 10:05:00.900", "req-ok-1", ROOM, 2048, 0, "132.20"),           // 8
        "[2026-08-27 10:06:00.000 TP0] Input length (812345 tokens) exceeds the maximum allowed length "
            + "(681275 tokens). Use a shorter input or enable --allow-auto-truncate., self.rid='req-long-1'", // 9
        "[2026-08-27 10:06:00.000 TP1] Input length (812345 tokens) exceeds the maximum allowed length "
            + "(681275 tokens). Use a shorter input or enable --allow-auto-truncate., self.rid='req-long-1'", // 10 same fact again
        prefillStats("2026-08-27 10:06:00.400", "req-long-1", 77, 1, 0, "0.25"),                // 11 stub
        "[2026-08-27 10:07:00] The input (1100000 tokens) is longer than the model's context length "
            + "(1048576 tokens).",                                                              // 12
        "[2026-08-27 10:08:00 TP0] Prefill bootstrap failed for request rank=0 req.rid='req-y' "
            + "req.bootstrap_room=456 with exception KVTransferError(bootstrap_room=456): Aborted by AbortReq."); // 13
  }

  /** The decode node's clock runs three minutes behind the prefill node's. */
  private static List<String> decodeLog() {
    return List.of(
        serverArgs("2026-08-27 09:57:05", "decode", 1048576L, "kv_canary='raise', "
            + "disaggregation_enable_kv_checksum=True, disaggregation_deferred_kv_release=True, "), // 1
        maxTotal("2026-08-27 09:57:07", 2400000, 1048576),                                      // 2
        receive("2026-08-27 10:02:00.200", "req-ok-1", ROOM),                                   // 3
        decodeBatch("2026-08-27 10:02:03.000"),                                                 // 4
        decodeStats("2026-08-27 10:02:04.000", "req-ok-1", ROOM, 2048, 64, "3.00"),             // 5
        finish("2026-08-27 10:02:04.100", "req-ok-1", ROOM, "stop", 2048, 64, 0, 4.1),          // 6
        "[2026-08-27 10:01:59.000 TP3] Decode transfer failed for request rank=3 decode_req.req.rid='req-x' "
            + "decode_req.req.bootstrap_room=123 with exception KVTransferError(bootstrap_room=123): "
            + "Failed to get kvcache from prefill instance, it might be dead",                  // 7 earlier than line 6
        "[2026-08-27 10:01:59.000 TP5] Decode transfer failed for request rank=5 decode_req.req.rid='req-x' "
            + "decode_req.req.bootstrap_room=123 with exception KVTransferError(bootstrap_room=123): "
            + "Failed to get kvcache from prefill instance, it might be dead",                  // 8 same fact, rank 5
        "[2026-08-27 10:03:00 TP0] kv_canary violation: launch_tag=decode_forward fail_reason=token_mismatch rid=req-z", // 9
        "[2026-08-27 10:03:01 TP0] KV checksum mismatch for request req-w: group 0 block positions [3, 4].", // 10
        "[2026-08-27 10:03:02 TP0] KV cache pool is full. Retract requests. #retracted_reqs: 2, "
            + "#new_tokens_gained: 1024, #new_token_ratio: 0.7000 -> 1.0000");                  // 11
  }

  @Test
  void prefillNodeLogBecomesOneEpochAndItsRequestFacts() throws IOException {
    Path file = write(dir, "prefill-0.log", prefillLog());
    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.skipped).isEqualTo(2);
    assertThat(sink.epochs()).containsExactly(new ConfigEpoch("prefill-0", NodeRole.PREFILL,
        utc("2026-08-27T09:59:58Z"), 681280L, 1048576L, 64, null, "/models/Kimi-K2-Instruct", "kimi-k2",
        "mooncake", false, false, null, "sglang-log", file.toString(), 1));
    assertThat(sink.epochs().get(0).poolBelowContext()).isTrue();

    List<EngineEvent> events = sink.events();
    assertThat(events).extracting(EngineEvent::kind).containsExactly(Kind.TIME_STATS, Kind.REJECTED,
        Kind.TIME_STATS, Kind.REJECTED, Kind.BOOTSTRAP_FAILED);
    assertThat(events).allSatisfy(e -> {
      assertThat(e.node()).isEqualTo("prefill-0");
      assertThat(e.role()).isEqualTo(NodeRole.PREFILL);
    });

    EngineEvent healthy = events.get(0);
    assertThat(healthy.rid()).isEqualTo("req-ok-1");
    assertThat(healthy.bootstrapRoom()).isEqualTo(ROOM);
    assertThat(healthy.inputLen()).isEqualTo(2048L);
    assertThat(healthy.cachedLen()).isEqualTo(0L);
    assertThat(healthy.outputLen()).isEqualTo(1L);
    assertThat(healthy.transferMb()).isEqualTo(132.20);
    assertThat(healthy.transferMillis()).isNull();
    assertThat(healthy.time()).isEqualTo(utc("2026-08-27T10:05:00.900Z"));
    assertThat(healthy.sourceLine()).isEqualTo(8);

    EngineEvent rejected = events.get(1);
    assertThat(rejected.rid()).isEqualTo("req-long-1");
    assertThat(rejected.requestedLen()).isEqualTo(812345L);
    assertThat(rejected.limit()).isEqualTo(681275L);
    assertThat(rejected.sourceLine()).isEqualTo(9);
    assertThat(rejected.detail()).contains("812345").contains("681275");

    EngineEvent stub = events.get(2);
    assertThat(stub.rid()).isEqualTo("req-long-1");
    assertThat(stub.inputLen()).isEqualTo(1L);
    assertThat(stub.bootstrapRoom()).isEqualTo(77L);
    assertThat(stub.transferMb()).isEqualTo(0.25);

    EngineEvent tokenizerSide = events.get(3);
    assertThat(tokenizerSide.rid()).isNull();
    assertThat(tokenizerSide.requestedLen()).isEqualTo(1100000L);
    assertThat(tokenizerSide.limit()).isEqualTo(1048576L);

    EngineEvent bootstrap = events.get(4);
    assertThat(bootstrap.rid()).isEqualTo("req-y");
    assertThat(bootstrap.bootstrapRoom()).isEqualTo(456L);
    assertThat(bootstrap.detail())
        .isEqualTo("Prefill bootstrap failed: KVTransferError(bootstrap_room=456): Aborted by AbortReq.");
  }

  @Test
  void decodeNodeLogCarriesTheSameRequestsAndItsFaults() throws IOException {
    Path prefill = write(dir, "prefill-0.log", prefillLog());
    Path decode = write(dir, "decode-0.log", decodeLog());
    CollectingSink p = parse(prefill);
    CollectingSink d = parse(decode);

    assertThat(d.bad).isEmpty();
    assertThat(d.skipped).isZero();
    ConfigEpoch epoch = d.epochs().get(0);
    assertThat(d.epochs()).hasSize(1);
    assertThat(epoch.role()).isEqualTo(NodeRole.DECODE);
    assertThat(epoch.start()).isEqualTo(utc("2026-08-27T09:57:05Z"));
    assertThat(epoch.poolTokens()).isEqualTo(2400000L);
    assertThat(epoch.contextLength()).isEqualTo(1048576L);
    assertThat(epoch.kvCanary()).isTrue();
    assertThat(epoch.kvChecksum()).isTrue();
    assertThat(epoch.deferredRelease()).isTrue();
    assertThat(epoch.poolBelowContext()).isFalse();

    assertThat(d.events()).extracting(EngineEvent::kind).containsExactly(Kind.RECEIVED, Kind.TIME_STATS,
        Kind.FINISHED, Kind.TRANSFER_FAILED, Kind.CANARY_VIOLATION, Kind.CHECKSUM_MISMATCH, Kind.POOL_FULL);
    EngineEvent received = d.events(Kind.RECEIVED).get(0);
    EngineEvent decodeStats = d.events(Kind.TIME_STATS).get(0);
    EngineEvent finished = d.events(Kind.FINISHED).get(0);
    EngineEvent prefillStats = p.events(Kind.TIME_STATS).get(0);

    // the join key is identical on both nodes
    for (EngineEvent e : List.of(received, decodeStats, finished, prefillStats)) {
      assertThat(e.rid()).isEqualTo("req-ok-1");
      assertThat(e.bootstrapRoom()).isEqualTo(ROOM);
    }
    assertThat(decodeStats.transferMillis()).isEqualTo(3.0);
    assertThat(decodeStats.outputLen()).isEqualTo(64L);
    assertThat(decodeStats.transferMb()).isNull();
    assertThat(finished.inputLen()).isEqualTo(2048L);
    assertThat(finished.outputLen()).isEqualTo(64L);
    assertThat(finished.cachedLen()).isEqualTo(0L);
    assertThat(finished.finishReason()).isEqualTo("stop");
    assertThat(finished.e2eLatencyMillis()).isEqualTo(4100.0);

    // clock skew: read as written, nothing reordered
    assertThat(received.time()).isEqualTo(utc("2026-08-27T10:02:00.200Z")).isLessThan(prefillStats.time());
    EngineEvent transfer = d.events(Kind.TRANSFER_FAILED).get(0);
    assertThat(transfer.time()).isEqualTo(utc("2026-08-27T10:01:59Z")).isLessThan(finished.time());
    assertThat(transfer.sourceLine()).isEqualTo(7);
    assertThat(transfer.rid()).isEqualTo("req-x");
    assertThat(transfer.bootstrapRoom()).isEqualTo(123L);
    assertThat(transfer.detail()).startsWith("Decode transfer failed: KVTransferError(bootstrap_room=123)");

    EngineEvent canary = d.events(Kind.CANARY_VIOLATION).get(0);
    assertThat(canary.rid()).isEqualTo("req-z");
    assertThat(canary.detail()).startsWith("kv_canary violation: launch_tag=decode_forward fail_reason=token_mismatch");
    assertThat(d.events(Kind.CHECKSUM_MISMATCH).get(0).rid()).isEqualTo("req-w");
    EngineEvent full = d.events(Kind.POOL_FULL).get(0);
    assertThat(full.rid()).isNull();
    assertThat(full.detail()).contains("#retracted_reqs: 2");
  }

  @Test
  void restartMidFileOpensASecondEpochWithTheNewPool() throws IOException {
    Path file = write(dir, "node-a.log", List.of(
        serverArgs("2026-08-28 08:00:00", "prefill", null, ""),           // 1 context from the scheduler
        kvAllocated("2026-08-28 08:00:20", "TP0", 681280),                 // 2
        maxTotal("2026-08-28 08:00:30", 681280, 1048576),                  // 3
        prefillBatch("2026-08-28 08:10:00"),                               // 4
        serverArgs("2026-08-28 09:30:00", "prefill", 1048576L, ""),        // 5 restart
        kvAllocated("2026-08-28 09:30:20", "TP0", 2097152),                // 6
        maxTotal("2026-08-28 09:30:21", 2097152, 1048576),                 // 7
        prefillBatch("2026-08-28 09:40:00")));                             // 8
    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.epochs()).extracting(ConfigEpoch::start, ConfigEpoch::sourceLine, ConfigEpoch::poolTokens,
            ConfigEpoch::contextLength, ConfigEpoch::poolBelowContext)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(utc("2026-08-28T08:00:00Z"), 1L, 681280L, 1048576L, true),
            org.assertj.core.groups.Tuple.tuple(utc("2026-08-28T09:30:00Z"), 5L, 2097152L, 1048576L, false));
  }

  @Test
  void aSmallerPoolFromAnotherRankOfTheSameStartupOpensAStricterEpoch() throws IOException {
    Path file = write(dir, "node-dp.log", List.of(
        serverArgs("2026-08-28 09:30:00", "decode", 1048576L, ""),
        maxTotal("2026-08-28 09:30:21", 2097152, 1048576),
        "[2026-08-28 09:30:22 DP1 TP0] max_total_num_tokens=900000, chunked_prefill_size=8192, "
            + "max_prefill_tokens=16384, max_running_requests=256, context_len=1048576, available_gpu_mem=1.0 GB",
        maxTotal("2026-08-28 09:30:23", 2097152, 1048576)));
    CollectingSink sink = parse(file);

    assertThat(sink.epochs()).extracting(ConfigEpoch::start, ConfigEpoch::poolTokens)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(utc("2026-08-28T09:30:00Z"), 2097152L),
            org.assertj.core.groups.Tuple.tuple(utc("2026-08-28T09:30:22Z"), 900000L));
  }

  @Test
  void aStartupThatNeverReachedItsPoolIsFoldedIntoTheNextOne() throws IOException {
    Path file = write(dir, "node-crashloop.log", List.of(
        serverArgs("2026-08-28 06:00:00", "prefill", 1048576L, "kv_canary=None, "),
        "[2026-08-28 06:00:40 TP0] Load weight begin. avail mem=60.87 GB",
        "torch.OutOfMemoryError: CUDA out of memory.",
        serverArgs("2026-08-28 06:02:00", "prefill", 1048576L, "kv_canary='raise', "),
        maxTotal("2026-08-28 06:03:00", 681280, 1048576)));
    CollectingSink sink = parse(file);

    assertThat(sink.epochs()).hasSize(1);
    ConfigEpoch e = sink.epochs().get(0);
    assertThat(e.start()).isEqualTo(utc("2026-08-28T06:00:00Z"));
    assertThat(e.sourceLine()).isEqualTo(1);
    assertThat(e.kvCanary()).isTrue(); // the settings of the startup that served
    assertThat(e.poolTokens()).isEqualTo(681280L);
  }

  @Test
  void epochWithoutSchedulerLineIsEmittedAtEndOfFileFromTheAllocation() throws IOException {
    Path file = write(dir, "node-b.log", List.of(
        // No SGLang build writes a version line; one that looks like it names nothing kvscope trusts.
        "[2026-08-28 07:00:00] sglang version: 0.5.21",
        serverArgs("2026-08-28 07:00:01", "null", 131072L, "kv_canary='off', "),
        kvAllocated("2026-08-28 07:00:20", "TP0", 500000)));
    CollectingSink sink = parse(file);

    assertThat(sink.epochs()).hasSize(1);
    ConfigEpoch e = sink.epochs().get(0);
    assertThat(e.role()).isEqualTo(NodeRole.UNIFIED);
    assertThat(e.poolTokens()).isEqualTo(500000L);
    assertThat(e.contextLength()).isEqualTo(131072L);
    assertThat(e.engineVersion()).as("the version comes from deployment records, never a log line").isNull();
    assertThat(e.versionSource()).isNull();
    assertThat(e.kvCanary()).isFalse();
    assertThat(e.sourceLine()).isEqualTo(2);
  }

  @Test
  void overLengthRejectionsInEveryFormAndTruncationsThatAreNot() throws IOException {
    Path file = write(dir, "p.log", List.of(
        "[2026-08-29 12:00:00 TP0] Input length (700000 tokens) exceeds the maximum allowed length (681275 tokens). "
            + "Use a shorter input or enable --allow-auto-truncate.",
        "[2026-08-29 12:00:01] The input (1100000 tokens) is longer than the model's context length (1048576 tokens).",
        "[2026-08-29 12:00:02] Requested token count exceeds the model's maximum context length of 1048576 tokens. "
            + "You requested a total of 1050000 tokens: 1040000 tokens from the input messages and 10000 tokens "
            + "for the completion. Please reduce the number of tokens in the input messages or the completion to fit "
            + "within the limit.",
        "[2026-08-29 12:00:03] The input (1100000 tokens) is longer than the model's context length (1048576 tokens). "
            + "Truncating the input.",
        "[2026-08-29 12:00:04 TP0] Request length is longer than the KV cache pool size or the max context length. "
            + "Truncated. len(req.origin_input_ids)=700000, max_req_input_len=681275.",
        "Traceback (most recent call last):",
        "ValueError: The input (2000000 tokens) is longer than the model's context length (1048576 tokens)."));
    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.events()).allSatisfy(e -> assertThat(e.kind()).isEqualTo(Kind.REJECTED));
    assertThat(sink.events()).extracting(EngineEvent::requestedLen, EngineEvent::limit, EngineEvent::rid,
            EngineEvent::sourceLine)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(700000L, 681275L, null, 1L),
            org.assertj.core.groups.Tuple.tuple(1100000L, 1048576L, null, 2L),
            org.assertj.core.groups.Tuple.tuple(1040000L, 1048576L, null, 3L),
            org.assertj.core.groups.Tuple.tuple(2000000L, 1048576L, null, 7L));
    // the traceback line has no prefix: it takes the last time seen
    assertThat(sink.events().get(3).time()).isEqualTo(utc("2026-08-29T12:00:04Z"));
    assertThat(sink.skipped).isEqualTo(1); // "Traceback (most recent call last):"
  }

  @Test
  void readsEveryPrefixShape() throws IOException {
    Path file = write(dir, "shapes.log", List.of(
        prefillStats("2026-08-27 10:00:01", "a", 1, 10, 0, "1.00").replace(" DP0 TP0]", " DP0 TP3]"),
        prefillStats("2026-08-27 10:00:01", "b", 2, 10, 0, "1.00").replace("10:00:01 DP0 TP0]", "10:00:01.123 DP1 TP2 EP2]"),
        prefillStats("2026-08-27 10:00:01", "c", 3, 10, 0, "1.00").replace("10:00:01 DP0 TP0]", "10:00:01,456]"),
        prefillStats("2026-08-27 10:00:01", "d", 4, 10, 0, "1.00").replace("2026-08-27 10:00:01 DP0 TP0]", "2026-08-27T10:00:01.5 TP0]"),
        "[2026-08-27 10:00:02 TP0] ReqTimeStats(rid=e, input_len=10, cached_input_len=0, output_len=2, type=Decode): "
            + "prealloc_queue_duration(3.00ms) = bootstrap(1.00ms) + alloc_wait(2.00ms); transfer_duration=0.25; queue_duration=4.00ms"));
    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.events()).extracting(EngineEvent::rid, EngineEvent::time).containsExactly(
        org.assertj.core.groups.Tuple.tuple("a", utc("2026-08-27T10:00:01Z")),
        org.assertj.core.groups.Tuple.tuple("b", utc("2026-08-27T10:00:01.123Z")),
        org.assertj.core.groups.Tuple.tuple("c", utc("2026-08-27T10:00:01.456Z")),
        org.assertj.core.groups.Tuple.tuple("d", utc("2026-08-27T10:00:01.500Z")),
        org.assertj.core.groups.Tuple.tuple("e", utc("2026-08-27T10:00:02Z")));
    EngineEvent e = sink.events().get(4);
    assertThat(e.role()).isEqualTo(NodeRole.DECODE); // no server_args: the line's own type
    assertThat(e.transferMillis()).isEqualTo(250.0); // a bare duration is in seconds
  }

  @Test
  void malformedKnownLinesAreReportedWithTheirLineAndNeighboursKept() throws IOException {
    String cutReceive = receive("2026-08-27 10:02:00.300", "req-cut", ROOM);
    cutReceive = cutReceive.substring(0, cutReceive.indexOf("bootstrap_port"));
    Path file = write(dir, "decode-1.log", List.of(
        receive("2026-08-27 10:02:00.200", "req-before", 1),
        cutReceive,
        finish("2026-08-27 10:02:04.100", "req-before", 1, "length", 10, 16, 2, 0.5),
        "[2026-13-45 10:00:00] Prefill batch, #new-seq: 1",
        "[2026-08-27 10:03:00 TP0] max_total_num_tokens=, context_len=1048576",
        "[2026-08-27 10:03:01 TP0] ReqTimeStats(rid='r', input_len=abc, type=prefill): queue_duration=1.00ms",
        decodeStats("2026-08-27 10:03:02", "req-after", 9, 10, 5, "1.00")));
    CollectingSink sink = parse(file);

    assertThat(sink.bad).extracting(b -> b.line()).containsExactly(2L, 4L, 5L, 6L);
    assertThat(sink.bad).allSatisfy(b -> {
      assertThat(b.file()).isEqualTo(file.toString());
      assertThat(b.reason()).doesNotContain("req-cut");
    });
    assertThat(sink.badRaw.get(0)).isEqualTo(cutReceive);
    assertThat(sink.events()).extracting(EngineEvent::rid).containsExactly("req-before", "req-before", "req-after");
    assertThat(sink.events(Kind.FINISHED).get(0).finishReason()).isEqualTo("length");
  }

  @Test
  void unknownLinesAreCountedAsSkipped() throws IOException {
    Path file = write(dir, "skips.log", List.of(
        "[2026-08-27 10:00:00] INFO:     127.0.0.1:5000 - \"GET /health HTTP/1.1\" 200 OK",
        "[2026-08-27 10:00:01 TP0] Capture cuda graph begin. This can take up to several minutes.",
        "  File \"/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py\", line 12, in event_loop",
        "",
        decodeBatch("2026-08-27 10:00:02"),
        "{\"timestamp\": \"2026-08-27T10:00:03\", \"event\": \"something.else\"}"));
    CollectingSink sink = parse(file);

    assertThat(sink.items).allSatisfy(i -> assertThat(i).isInstanceOf(NodeActivity.class));
    assertThat(sink.bad).isEmpty();
    assertThat(sink.skipped).isEqualTo(5);
  }

  @Test
  void gzipInputReadsTheSameAsPlain() throws IOException {
    Path plain = write(dir, "prefill-7.log", prefillLog());
    Path gz = LogFiles.writeGzip(dir, "prefill-7.log.gz", prefillLog());
    CollectingSink a = parse(plain);
    CollectingSink b = parse(gz);

    assertThat(b.epochs()).hasSize(1);
    assertThat(b.epochs().get(0).node()).isEqualTo("prefill-7");
    assertThat(b.events()).hasSameSizeAs(a.events());
    assertThat(b.events()).extracting(EngineEvent::kind, EngineEvent::rid, EngineEvent::time, EngineEvent::sourceLine)
        .containsExactlyElementsOf(a.events().stream()
            .map(e -> org.assertj.core.groups.Tuple.tuple(e.kind(), e.rid(), e.time(), e.sourceLine())).toList());
  }

  @Test
  void activityIsCountedPerUtcHourAndEmittedWhenTheLogMovesOn() throws IOException {
    Path file = write(dir, "hours.log", List.of(
        "continuation before any timestamp",                                        // 1 -> first hour
        serverArgs("2026-08-27 10:10:00", "decode", 1048576L, ""),                 // 2
        decodeBatch("2026-08-27 10:59:59.900").replace("TP0]", "TP1]"),            // 3
        decodeBatch("2026-08-27 11:00:00.100"),                                    // 4
        decodeBatch("2026-08-27 10:59:59.950").replace("TP0]", "TP1]"),            // 5 a rank a moment behind
        "    at the continuation of line 5",                                        // 6 -> hour 10
        decodeBatch("2026-08-27 11:30:00"),                                         // 7
        decodeStats("2026-08-27 13:05:00", "late", 5, 10, 2, "1.00")));             // 8 (no lines at 12:00)
    CollectingSink sink = parse(file);

    assertThat(sink.activity()).extracting(NodeActivity::hourStart, NodeActivity::lines, NodeActivity::sourceLine)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(utc("2026-08-27T10:00:00Z"), 5L, 1L),
            org.assertj.core.groups.Tuple.tuple(utc("2026-08-27T11:00:00Z"), 2L, 4L),
            org.assertj.core.groups.Tuple.tuple(utc("2026-08-27T13:00:00Z"), 1L, 8L));
    assertThat(sink.activity()).allSatisfy(a -> {
      assertThat(a.node()).isEqualTo("hours");
      assertThat(a.role()).isEqualTo(NodeRole.DECODE);
    });
    // hours 10 and 11 were emitted as soon as the log reached 13:00, before that line's event
    List<Object> order = new ArrayList<>(sink.items);
    int late = order.indexOf(sink.events(Kind.TIME_STATS).get(0));
    assertThat(order.indexOf(sink.activity().get(0))).isLessThan(late);
    assertThat(order.indexOf(sink.activity().get(1))).isLessThan(late);
  }

  @Test
  void promptTextNeverReachesARecordNorPassesForAFault() throws IOException {
    String prompt = "SECRET-PROMPT kv_canary violation: Input length (99 tokens) exceeds the maximum allowed "
        + "length (1 tokens). ReqTimeStats(rid='fake', input_len=1) server_args=ServerArgs(context_length=1)";
    // Python's repr quotes a string holding ' with "
    String level3Receive = "[2026-08-27 10:02:00.200] Receive: obj=GenerateReqInput(text=\"" + prompt
        + "\", input_ids=None, rid='req-secret', bootstrap_room=42, sampling_params={'max_new_tokens': 64})";
    String level3Finish = "[2026-08-27 10:02:01] Finish: obj=GenerateReqInput(text=\"" + prompt
        + "\", rid='req-secret', bootstrap_room=42), out={'text': 'SECRET-RESPONSE about \\'quotes\\'', "
        + "'output_ids': [1, 2, 3], 'meta_info': {'id': 'req-secret', 'finish_reason': {'type': 'abort', "
        + "'message': 'SECRET-RESPONSE', 'status_code': 400}, 'prompt_tokens': 1, 'completion_tokens': 3, "
        + "'cached_tokens': 0, 'e2e_latency': 0.05}}";
    String json = "{\"timestamp\": \"2026-08-27T10:02:02.500000\", \"event\": \"request.received\", "
        + "\"rid\": \"req-json\", \"obj\": {\"text\": \"" + prompt + "\", \"rid\": \"req-json\", \"bootstrap_room\": 43}}";
    String longPrompt = "SECRET-LONG " + "a quick brown fox ".repeat(190_000); // ~3.4 MB on one line
    String hugeReceive = "[2026-08-27 10:02:03] Receive: obj=GenerateReqInput(text='" + longPrompt
        + "', rid='req-huge', bootstrap_room=44)";
    Path file = write(dir, "decode-2.log", List.of(level3Receive, level3Finish, json, hugeReceive));
    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.events()).extracting(EngineEvent::kind, EngineEvent::rid).containsExactly(
        org.assertj.core.groups.Tuple.tuple(Kind.RECEIVED, "req-secret"),
        org.assertj.core.groups.Tuple.tuple(Kind.FINISHED, "req-secret"),
        org.assertj.core.groups.Tuple.tuple(Kind.RECEIVED, "req-json"),
        org.assertj.core.groups.Tuple.tuple(Kind.RECEIVED, "req-huge"));
    assertThat(sink.events(Kind.FINISHED).get(0).finishReason()).isEqualTo("abort");
    assertThat(sink.events(Kind.FINISHED).get(0).detail()).isNull();
    assertThat(sink.events().get(2).time()).isEqualTo(utc("2026-08-27T10:02:02.500Z"));
    assertThat(sink.events().get(3).bootstrapRoom()).isEqualTo(44L);
    assertThat(sink.allRecordText()).doesNotContain("SECRET");
  }

  @Test
  void jsonRequestLoggerLinesBecomeReceivedAndFinished() throws IOException {
    Path file = write(dir, "requests.jsonl", List.of(
        "{\"timestamp\": \"2026-08-27T10:05:00.123456\", \"event\": \"request.received\", \"rid\": \"req-j\", "
            + "\"obj\": {\"rid\": \"req-j\", \"bootstrap_room\": 6593551520068383758, \"stream\": true}}",
        "{\"timestamp\": \"2026-08-27T10:05:02.000001\", \"event\": \"request.finished\", \"rid\": \"req-j\", "
            + "\"obj\": {\"rid\": \"req-j\", \"bootstrap_room\": 6593551520068383758}, \"out\": {\"text\": \"hi\", "
            + "\"meta_info\": {\"id\": \"req-j\", \"finish_reason\": {\"type\": \"length\", \"length\": 32}, "
            + "\"prompt_tokens\": 812345, \"completion_tokens\": 32, \"cached_tokens\": 0, \"e2e_latency\": 1.5}}}",
        "{\"timestamp\": \"2026-08-27T10:05:03\", \"event\": \"request.finished\", \"rid\": \"req-k\", \"out\": {\"meta_"));
    CollectingSink sink = parse(file);

    assertThat(sink.events()).hasSize(2);
    EngineEvent received = sink.events().get(0);
    EngineEvent finished = sink.events().get(1);
    assertThat(received.kind()).isEqualTo(Kind.RECEIVED);
    assertThat(received.bootstrapRoom()).isEqualTo(ROOM);
    assertThat(received.time()).isEqualTo(utc("2026-08-27T10:05:00.123Z"));
    assertThat(finished.kind()).isEqualTo(Kind.FINISHED);
    assertThat(finished.inputLen()).isEqualTo(812345L);
    assertThat(finished.outputLen()).isEqualTo(32L);
    assertThat(finished.finishReason()).isEqualTo("length");
    assertThat(finished.e2eLatencyMillis()).isEqualTo(1500.0);
    assertThat(finished.node()).isEqualTo("requests");
    assertThat(sink.bad).extracting(b -> b.line()).containsExactly(3L);
  }

  @Test
  void nodeNameOptionOverridesTheFileStem() throws IOException {
    Path file = write(dir, "whatever.name.log", prefillLog());
    CollectingSink sink = parse(file, IngestOptions.defaults().withNodeName("gpu-node-17"));
    assertThat(sink.items).allSatisfy(i -> {
      String node = switch (i) {
        case EngineEvent e -> e.node();
        case ConfigEpoch c -> c.node();
        case NodeActivity a -> a.node();
        default -> throw new AssertionError(i);
      };
      assertThat(node).isEqualTo("gpu-node-17");
    });
  }

  @Test
  void isNotResumableByLine() {
    assertThat(ingestor.resumableByLine()).isFalse();
  }
}

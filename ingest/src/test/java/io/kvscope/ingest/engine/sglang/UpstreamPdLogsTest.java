package io.kvscope.ingest.engine.sglang;

import static io.kvscope.ingest.engine.LogFiles.utc;
import static io.kvscope.ingest.engine.LogFiles.write;
import static io.kvscope.ingest.engine.sglang.UpstreamPdLogs.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.kvscope.ingest.CollectingSink;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import io.kvscope.ingest.InputFile;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.EngineEvent.Kind;
import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A prefill/decode pair's logs as upstream SGLang writes them ({@link UpstreamPdLogs}): each side
 * names its own rid, every line kind becomes its event with the room both sides share, per-rank
 * copies count once.
 */
class UpstreamPdLogsTest {

  @TempDir
  Path dir;

  private CollectingSink parse(Path file) throws IOException {
    CollectingSink sink = new CollectingSink();
    new SglangLogIngestor().parse(new InputFile(file), IngestOptions.defaults(), sink);
    return sink;
  }

  @Test
  void theFilesAreDetectedAsSglangLogs() throws IOException {
    Path prefill = write(dir, "sglang-prefill-0.log", prefill());
    Path json = write(dir, "sglang-decode-1.log", decodeWithJsonRequestLogger());
    Ingestors all = Ingestors.discover();
    assertThat(all.detect(new InputFile(prefill), IngestOptions.defaults())).get()
        .extracting(i -> i.name()).isEqualTo("sglang-log");
    assertThat(all.detect(new InputFile(json), IngestOptions.defaults())).get()
        .extracting(i -> i.name()).isEqualTo("sglang-log");
  }

  @Test
  void prefillNodeNamesItsOwnRidsWithTheRoomsTheDecodeNodeShares() throws IOException {
    CollectingSink sink = parse(write(dir, "sglang-prefill-0.log", prefill()));

    assertThat(sink.bad).isEmpty();
    assertThat(sink.epochs()).singleElement().satisfies(e -> {
      assertThat(e.role()).isEqualTo(NodeRole.PREFILL);
      assertThat(e.poolTokens()).isEqualTo(POOL);
      assertThat(e.contextLength()).isEqualTo(CONTEXT);
      assertThat(e.start()).isEqualTo(utc("2026-08-27T09:50:00Z"));
    });
    assertThat(sink.events()).allSatisfy(e -> assertThat(e.role()).isEqualTo(NodeRole.PREFILL));
    assertThat(sink.events()).extracting(EngineEvent::kind, EngineEvent::rid, EngineEvent::bootstrapRoom)
        .containsExactly(
            tuple(Kind.RECEIVED, P_OK, ROOM_OK),
            tuple(Kind.TIME_STATS, P_OK, ROOM_OK),
            tuple(Kind.FINISHED, P_OK, ROOM_OK),
            tuple(Kind.RECEIVED, P_LONG, ROOM_LONG),
            tuple(Kind.REJECTED, P_LONG, null), // the rejection names the rid only
            tuple(Kind.TIME_STATS, P_LONG, ROOM_LONG),
            tuple(Kind.FINISHED, P_LONG, ROOM_LONG),
            tuple(Kind.RECEIVED, P_FAIL, ROOM_FAIL),
            tuple(Kind.TRANSFER_FAILED, P_FAIL, ROOM_FAIL)); // four ranks, one fact

    EngineEvent healthy = sink.events(Kind.TIME_STATS).get(0);
    assertThat(healthy.inputLen()).isEqualTo(2048L);
    assertThat(healthy.outputLen()).isEqualTo(1L);
    assertThat(healthy.transferMb()).isEqualTo(96.0);
    assertThat(healthy.time()).isEqualTo(utc("2026-08-27T10:00:01Z"));

    EngineEvent stub = sink.events(Kind.TIME_STATS).get(1);
    assertThat(stub.inputLen()).as("the one-token placeholder").isEqualTo(1L);
    assertThat(stub.transferMb()).isEqualTo(12.0);

    EngineEvent rejected = sink.events(Kind.REJECTED).get(0);
    assertThat(rejected.requestedLen()).isEqualTo(LONG_PROMPT);
    assertThat(rejected.limit()).isEqualTo(MAX_INPUT);

    EngineEvent stubFinish = sink.events(Kind.FINISHED).get(1);
    assertThat(stubFinish.finishReason()).isEqualTo("abort");
    assertThat(stubFinish.inputLen()).isEqualTo(1L);

    EngineEvent failed = sink.events(Kind.TRANSFER_FAILED).get(0);
    assertThat(failed.detail()).startsWith("Prefill transfer failed: KVTransferError(bootstrap_room=" + ROOM_FAIL + ")")
        .doesNotContain("rank=");
    assertThat(failed.sourceLine()).as("the first rank's line").isEqualTo(17);
  }

  @Test
  void tp8DecodeNodeNamesOtherRidsAndReportsEachFactOnce() throws IOException {
    CollectingSink sink = parse(write(dir, "sglang-decode-0.log", decode()));

    assertThat(sink.bad).isEmpty();
    assertThat(sink.epochs()).extracting(ConfigEpoch::role, ConfigEpoch::poolTokens, ConfigEpoch::contextLength)
        .containsExactly(tuple(NodeRole.DECODE, 2_400_000L, CONTEXT));
    assertThat(sink.events()).extracting(EngineEvent::kind, EngineEvent::rid, EngineEvent::bootstrapRoom)
        .containsExactly(
            tuple(Kind.RECEIVED, D_OK, ROOM_OK),
            tuple(Kind.TIME_STATS, D_OK, ROOM_OK),
            tuple(Kind.FINISHED, D_OK, ROOM_OK),
            tuple(Kind.RECEIVED, D_LONG, ROOM_LONG),
            tuple(Kind.TIME_STATS, D_LONG, ROOM_LONG),
            tuple(Kind.FINISHED, D_LONG, ROOM_LONG),
            tuple(Kind.RECEIVED, D_FAIL, ROOM_FAIL),
            tuple(Kind.TRANSFER_FAILED, D_FAIL, ROOM_FAIL)); // eight ranks, one fact
    assertThat(sink.events()).extracting(EngineEvent::rid).doesNotContain(P_OK, P_LONG, P_FAIL);

    EngineEvent reserved = sink.events(Kind.TIME_STATS).get(1);
    assertThat(reserved.inputLen()).as("decode reserved the whole prompt").isEqualTo(LONG_PROMPT);
    assertThat(reserved.outputLen()).isEqualTo(200L);
    assertThat(reserved.transferMillis()).isEqualTo(8.0);
    assertThat(reserved.transferMb()).isNull();
    assertThat(sink.events(Kind.TRANSFER_FAILED).get(0).detail())
        .isEqualTo("Decode transfer failed: KVTransferError(bootstrap_room=" + ROOM_FAIL + "): Failed to get "
            + "kvcache from prefill instance, it might be dead");
    assertThat(sink.activity().stream().mapToLong(a -> a.lines()).sum()).as("every rank's line is activity")
        .isEqualTo(decode().size());
  }

  @Test
  void jsonRequestLoggerLinesWithoutPrefixSitBetweenSchedulerLines() throws IOException {
    CollectingSink sink = parse(write(dir, "sglang-decode-1.log", decodeWithJsonRequestLogger()));

    assertThat(sink.bad).isEmpty();
    assertThat(sink.events()).extracting(EngineEvent::kind, EngineEvent::rid, EngineEvent::bootstrapRoom,
            EngineEvent::time)
        .containsExactly(
            tuple(Kind.RECEIVED, D_OK, ROOM_OK, utc("2026-08-27T09:59:57.482Z")),
            tuple(Kind.TIME_STATS, D_OK, ROOM_OK, utc("2026-08-27T10:00:00Z")),
            tuple(Kind.FINISHED, D_OK, ROOM_OK, utc("2026-08-27T10:00:00.190Z")));
    assertThat(sink.events()).allSatisfy(e -> assertThat(e.role()).isEqualTo(NodeRole.DECODE));
    EngineEvent finished = sink.events(Kind.FINISHED).get(0);
    assertThat(finished.inputLen()).isEqualTo(2048L);
    assertThat(finished.outputLen()).isEqualTo(64L);
    assertThat(finished.finishReason()).isEqualTo("stop");
  }

  @Test
  void everyTimeStatsShapeUpstreamPrintedReadsTheSame() throws IOException {
    String prefix = "[2026-08-27 10:00:01 TP0] ";
    Path file = write(dir, "shapes.log", List.of(
        // Req.log_time_stats + TimeStats.convert_to_duration, oldest: no breakdown, start_time
        prefix + "Req Time Stats(rid=r1, bootstrap_room=11, input len=2048, output len=1, type=prefill): "
            + "bootstrap_duration=3.20ms, queue_duration=0.41ms, forward_duration=540.19ms, start_time=81234.567",
        prefix + "Req Time Stats(rid=r2, bootstrap_room=12, input len=2048, output len=64, type=decode): "
            + "prealloc_duration=4.10ms, transfer_duration=12.00ms, queue_duration=0.40ms, "
            + "forward_duration=2100.00ms, start_time=80122.340",
        // alloc_wait + bootstrap + other breakdown
        prefix + "Req Time Stats(rid=r3, bootstrap_room=13, input len=1, output len=1, type=prefill): "
            + "bootstrap_queue_duration(3.20ms) = alloc_wait(1.10ms) + bootstrap(2.10ms) + other(0.00ms); "
            + "queue_duration=0.41ms, forward_duration=31.44ms, start=81298.002, transfer_speed=0.40GB/s, "
            + "transfer_total=12.00MB",
        prefix + "Req Time Stats(rid=r4, bootstrap_room=14, input len=707640, output len=200, type=decode): "
            + "prealloc_queue_duration(6.30ms) = alloc_wait(2.30ms) + bootstrap(4.00ms) + other(0.00ms); "
            + "transfer_duration=8.00ms; queue_duration=0.30ms, forward_duration=4400.00ms, start=80185.120",
        // no bootstrap room (not disaggregated)
        prefix + "Req Time Stats(rid=r5, input len=38, output len=484, type=unified): queue_duration=0.00ms, "
            + "forward_duration=1759.38ms, start_time=0.0",
        // later builds: ReqTimeStats(..., input_len=, cached_input_len=, [attempts=,] ...), units spaced
        prefix + "ReqTimeStats(rid=r6, bootstrap_room=16, input_len=4096, cached_input_len=128, output_len=1, "
            + "attempts=0, type=prefill): bootstrap_duration=1.60ms, alloc_wait_duration=0.20ms, "
            + "queue_duration=828.30ms, forward_duration=1773.63ms, entry_time=1781183686.422, "
            + "transfer_speed=0.14 GB/s, transfer_total=132.20 MB, #retries=0"));
    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.events()).extracting(EngineEvent::rid, EngineEvent::bootstrapRoom, EngineEvent::role,
            EngineEvent::inputLen, EngineEvent::cachedLen, EngineEvent::outputLen, EngineEvent::transferMb,
            EngineEvent::transferMillis)
        .containsExactly(
            tuple("r1", 11L, NodeRole.PREFILL, 2048L, null, 1L, null, null),
            tuple("r2", 12L, NodeRole.DECODE, 2048L, null, 64L, null, 12.0),
            tuple("r3", 13L, NodeRole.PREFILL, 1L, null, 1L, 12.0, null),
            tuple("r4", 14L, NodeRole.DECODE, 707_640L, null, 200L, null, 8.0),
            tuple("r5", null, NodeRole.UNIFIED, 38L, null, 484L, null, null),
            tuple("r6", 16L, NodeRole.PREFILL, 4096L, 128L, 1L, 132.20, null));
  }

  @Test
  void aRidWithCommasOrQuotesIsReadWhole() throws IOException {
    Path file = write(dir, "rids.log", List.of(
        "[2026-08-27 10:00:01 TP0] Req Time Stats(rid=user-7, batch 3, bootstrap_room=21, input len=5, "
            + "output len=1, type=prefill): queue_duration=0.41ms",
        "[2026-08-27 10:00:02 TP0] ReqTimeStats(rid='quoted', input_len=5, cached_input_len=0, output_len=1, "
            + "type=unified): queue_duration=0.41ms"));
    CollectingSink sink = parse(file);

    assertThat(sink.bad).isEmpty();
    assertThat(sink.events()).extracting(EngineEvent::rid, EngineEvent::bootstrapRoom)
        .containsExactly(tuple("user-7, batch 3", 21L), tuple("quoted", null));
  }

  @Test
  void theFixedPrefillQueueRejectionNamesThePool() throws IOException {
    Path file = write(dir, "fixed-prefill.log", List.of(
        "[2026-08-27 10:01:04 TP0] Request " + P_LONG + " exceeds the maximum number of tokens: 707640 > 681280",
        "[2026-08-27 10:01:04 TP1] Request " + P_LONG + " exceeds the maximum number of tokens: 707640 > 681280"));
    CollectingSink sink = parse(file);

    assertThat(sink.events()).extracting(EngineEvent::kind, EngineEvent::rid, EngineEvent::requestedLen,
            EngineEvent::limit)
        .containsExactly(tuple(Kind.REJECTED, P_LONG, 707_640L, 681_280L));
  }
}

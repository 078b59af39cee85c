package io.kvscope.index.join;

import io.kvscope.model.join.EngineFacts;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.store.IndexStore;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.EngineEvent.Kind;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.record.RequestRecord;
import java.nio.file.Path;
import java.time.Instant;
import org.apache.lucene.document.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LinkerTest {

  @TempDir Path tmp;

  private static long at(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  private static ConfigEpoch epoch(String node, NodeRole role, String start, long pool, long context) {
    return new ConfigEpoch(node, role, at(start), pool, context, 64, "0.5.21", "model", "served", "mooncake",
        false, false, null, "sglang-log", node + ".log", 1);
  }

  private static EngineEvent event(Kind kind, String node, NodeRole role, String rid, String time, Long inputLen) {
    Long room = rid.equals("abc") ? 42L : 43L;
    return new EngineEvent(kind, node, role, rid, room, at(time), inputLen, null, null, null, null, null, null,
        null, null, null, node + ".log", 10);
  }

  @Test
  void joinsEngineFactsByRidAndPicksEachNodesEpochByItsOwnClock() throws Exception {
    Path index = tmp.resolve("index");
    try (IndexStore store = IndexStore.open(index)) {
      // The prefill node restarted with a smaller pool at 12:00 (its clock).
      store.put(Documents.of(epoch("prefill-0", NodeRole.PREFILL, "2026-08-27T00:00:00Z", 900_000, 1_048_576)));
      store.put(Documents.of(epoch("prefill-0", NodeRole.PREFILL, "2026-08-27T12:00:00Z", 681_280, 1_048_576)));
      store.put(Documents.of(epoch("decode-0", NodeRole.DECODE, "2026-08-27T00:00:00Z", 681_280, 1_048_576)));
      store.put(Documents.of(RequestRecord.builder("gw-1").engineRid("abc").tenant("acme").promptTokens(1L)
          .statusCode(200).startTime(at("2026-08-27T12:00:10Z")).sourceFile("gw.jsonl").sourceLine(1).build()));
      store.put(Documents.of(RequestRecord.builder("gw-2").engineRid("no-engine-log").tenant("acme")
          .statusCode(200).sourceFile("gw.jsonl").sourceLine(2).build()));
      // The prefill node's clock runs 40 s ahead of the gateway's; decode's 30 s behind.
      store.put(Documents.of(event(Kind.RECEIVED, "prefill-0", NodeRole.PREFILL, "abc", "2026-08-27T12:00:50Z", null)));
      store.put(Documents.of(event(Kind.TIME_STATS, "prefill-0", NodeRole.PREFILL, "abc", "2026-08-27T12:00:51Z", 1L)));
      store.put(Documents.of(event(Kind.TIME_STATS, "decode-0", NodeRole.DECODE, "abc", "2026-08-27T11:59:41Z", 700_000L)));
      store.put(Documents.of(event(Kind.REJECTED, "prefill-0", NodeRole.PREFILL, "abc", "2026-08-27T12:00:50Z", null)));
      store.put(Documents.of(event(Kind.FINISHED, "decode-0", NodeRole.DECODE, "only-engine", "2026-08-27T12:01:00Z", 5L)));

      LinkSummary summary = new Linker(store).run();
      store.commit();

      assertThat(summary.requests()).isEqualTo(2);
      assertThat(summary.joined()).isEqualTo(1);
      assertThat(summary.gatewayOnlySample()).containsExactly("gw-2");
      assertThat(summary.engineOnlyRids()).isEqualTo(1);
      assertThat(summary.engineOnlySample()).containsExactly("only-engine");
      assertThat(summary.byRole().decodeByRid()).isEqualTo(1);
      assertThat(summary.byRole().prefillByRid()).as("this deployment passes one rid to both").isEqualTo(1);
      assertThat(summary.byRole().prefillByRoom()).isZero();
      assertThat(summary.byRole().unmatchedRids()).containsExactly(java.util.Map.entry(NodeRole.DECODE, 1L));
      assertThat(new Linker(store).run().rewritten()).as("a second link changes nothing").isZero();
    }
    try (IndexSearch search = IndexSearch.open(index)) {
      Document linked = search.search("request_id:gw-1", 1).documents().get(0);
      RequestRecord record = Documents.readRequest(linked);
      EngineFacts facts = Documents.readFacts(linked);
      assertThat(record.prefillNode()).isEqualTo("prefill-0");
      assertThat(record.decodeNode()).isEqualTo("decode-0");
      assertThat(record.engineInputLen()).as("prefill's stub length, not decode's reservation").isEqualTo(1L);
      assertThat(record.bootstrapRoom()).isEqualTo(42L);
      assertThat(facts.rejected()).isTrue();
      assertThat(facts.prefillEpoch().poolTokens()).isEqualTo(681_280L);
      assertThat(facts.decodeEpoch().contextLength()).isEqualTo(1_048_576L);
      assertThat(search.search("engine_input_len:1 AND prefill_pool_tokens:[* TO 1048575]", 10).total()).isEqualTo(1);
    }
  }

  @Test
  void aRelinkReplacesWhatAnEarlierPartialJoinFilledAndKeepsTheGatewaysOwnValues() throws Exception {
    Path index = tmp.resolve("relink");
    try (IndexStore store = IndexStore.open(index)) {
      store.put(Documents.of(epoch("prefill-0", NodeRole.PREFILL, "2026-08-27T00:00:00Z", 900_000, 1_048_576)));
      store.put(Documents.of(epoch("decode-0", NodeRole.DECODE, "2026-08-27T00:00:00Z", 900_000, 1_048_576)));
      // Written while its rid's lines joined another request's room (the record claiming them was
      // not indexed yet): the write-time link filled nodes and room from those lines.
      RequestRecord gateway = RequestRecord.builder("gw-1").engineRid("abc").tenant("acme").cachedTokens(7L)
          .statusCode(200).startTime(at("2026-08-27T12:00:10Z")).sourceFile("gw.jsonl").sourceLine(1).build();
      EngineEvent stale = new EngineEvent(Kind.TIME_STATS, "prefill-9", NodeRole.PREFILL, "abc", 99L,
          at("2026-08-27T12:00:11Z"), 5L, null, null, 3L, null, null, null, null, null, null, "stale.log", 1);
      EngineFacts staleFacts = EngineFacts.fold(java.util.List.of(stale), null, (node, time) -> null);
      assertThat(staleFacts.bootstrapRoom()).isEqualTo(99L);
      store.put(Documents.linkedRequest(gateway, staleFacts));
      store.put(Documents.of(event(Kind.TIME_STATS, "prefill-0", NodeRole.PREFILL, "abc", "2026-08-27T12:00:11Z", 1L)));
      store.put(Documents.of(event(Kind.TIME_STATS, "decode-0", NodeRole.DECODE, "abc", "2026-08-27T12:00:12Z", 900L)));

      assertThat(new Linker(store).run().rewritten()).isEqualTo(1);
      store.commit();
    }
    try (IndexSearch search = IndexSearch.open(index)) {
      RequestRecord record = Documents.readRequest(search.search("request_id:gw-1", 1).documents().get(0));
      assertThat(record.prefillNode()).isEqualTo("prefill-0");
      assertThat(record.decodeNode()).isEqualTo("decode-0");
      assertThat(record.bootstrapRoom()).as("the room the request's own lines name").isEqualTo(42L);
      assertThat(record.engineInputLen()).isEqualTo(1L);
      assertThat(record.cachedTokens()).as("the gateway's own value stays").isEqualTo(7L);
    }
  }

  private static EngineEvent decodeStats(String rid, long room, String time, long inputLen) {
    return new EngineEvent(Kind.TIME_STATS, "decode-0", NodeRole.DECODE, rid, room, at(time), inputLen, null, null,
        null, null, null, null, null, null, null, "decode-0.log", 10);
  }

  @Test
  void requestsAreReadWhicheverSegmentAndOrderTheirDocumentsAreInAndEachIsLinkedOnce() throws Exception {
    Path index = tmp.resolve("segments");
    try (IndexStore store = IndexStore.open(index)) {
      store.put(Documents.of(epoch("decode-0", NodeRole.DECODE, "2026-08-27T00:00:00Z", 900_000, 1_048_576)));
      // Documents in the reverse of the rids' order, so that each look-up goes back in the segment.
      store.put(Documents.of(RequestRecord.builder("gw-z").engineRid("z").tenant("acme").statusCode(200)
          .startTime(at("2026-08-27T12:00:10Z")).sourceFile("gw.jsonl").sourceLine(1).build()));
      store.put(Documents.of(RequestRecord.builder("gw-m").engineRid("m").tenant("acme").statusCode(200)
          .sourceFile("gw.jsonl").sourceLine(2).build()));
      store.put(Documents.of(RequestRecord.builder("gw-a").engineRid("a").tenant("acme").statusCode(200)
          .startTime(at("2026-08-27T12:00:20Z")).sourceFile("gw.jsonl").sourceLine(3).build()));
      store.put(Documents.of(RequestRecord.builder("gw-none").tenant("acme").statusCode(200)
          .sourceFile("gw.jsonl").sourceLine(4).build()));
      store.commit();
      // The engine's lines in a later segment; the decode node's clock runs 30 s ahead.
      store.put(Documents.of(decodeStats("z", 101L, "2026-08-27T12:00:40Z", 9L)));
      store.put(Documents.of(decodeStats("a", 102L, "2026-08-27T12:00:50Z", 7L)));
      store.commit();
      // A second request under "a" (a retry the gateway logged twice), in a third segment.
      store.put(Documents.of(RequestRecord.builder("gw-a2").engineRid("a").tenant("acme").statusCode(200)
          .sourceFile("gw.jsonl").sourceLine(5).build()));
      store.commit();

      LinkSummary summary = new Linker(store).run();
      store.commit();

      assertThat(summary.requests()).isEqualTo(5);
      assertThat(summary.joined()).as("gw-z, gw-a and gw-a2").isEqualTo(3);
      assertThat(summary.rewritten()).isEqualTo(3);
      assertThat(summary.gatewayOnlySample()).as("a rid without lines first, then a request without a rid")
          .containsExactly("gw-m", "gw-none");
      assertThat(new Linker(store).run().rewritten()).as("each signature read back unchanged").isZero();
    }
    try (IndexSearch search = IndexSearch.open(index)) {
      assertThat(Documents.readRequest(search.search("request_id:gw-a2", 1).documents().get(0)).engineInputLen())
          .isEqualTo(7L);
      assertThat(Documents.readRequest(search.search("request_id:gw-z", 1).documents().get(0)).engineInputLen())
          .isEqualTo(9L);
      assertThat(search.search("request_id:gw-a", 10).total()).as("linked once, not duplicated").isEqualTo(1);
      // Both starts read back: 30 s from each of the two requests that carry one.
      assertThat(io.kvscope.index.nodes.NodeClocks.load(search.reader()).skew("decode-0")).isEqualTo(30_000L);
    }
  }
}

package io.kvscope.index.join;

import io.kvscope.model.join.EngineFacts;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.nodes.NodeClocks;
import io.kvscope.index.store.IndexStore;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.join.RoomRule;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.EngineEvent.Kind;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.record.RequestRecord;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The join of a disaggregated deployment, where each server makes its own rid: the gateway's id is
 * the decode rid, the prefill side is reached only through the bootstrap room both sides log.
 */
class PrefillJoinTest {

  private static final String DECODE_RID = "63b1b22dad53465b92560ebdda56d075";
  private static final String PREFILL_RID = "ca271fb6eab2421f98ac61976e6f0f34";
  private static final long ROOM = 6593551520068383758L;

  @TempDir Path tmp;

  private static long at(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  private static ConfigEpoch epoch(String node, NodeRole role, long pool) {
    return new ConfigEpoch(node, role, at("2026-08-27T00:00:00Z"), pool, 1_048_576L, 64, null, "model", "served",
        "mooncake", false, false, null, "sglang-log", node + ".log", 1);
  }

  private static EngineEvent event(Kind kind, String node, NodeRole role, String rid, Long room, String time,
      Long inputLen, Long requested, Long limit) {
    return new EngineEvent(kind, node, role, rid, room, at(time), inputLen, requested, limit, null, null, null, null,
        null, null, null, node + ".log", 10);
  }

  private static RequestRecord request(String id, String rid, String start) {
    return RequestRecord.builder(id).engineRid(rid).tenant("acme").promptTokens(707_640L).statusCode(200)
        .startTime(at(start)).sourceFile("gw.jsonl").sourceLine(1).build();
  }

  /** An over-length request: decode logs its own rid, prefill its own, both the same room. */
  private static void overLengthPair(IndexStore store, String decodeRid, String prefillRid, long room) throws Exception {
    // prefill clock 40 s ahead of the gateway, decode 30 s behind
    store.put(Documents.of(event(Kind.RECEIVED, "prefill-0", NodeRole.PREFILL, prefillRid, room,
        "2026-08-27T12:00:50Z", null, null, null)));
    store.put(Documents.of(event(Kind.REJECTED, "prefill-0", NodeRole.PREFILL, prefillRid, null,
        "2026-08-27T12:00:54Z", null, 707_640L, 681_274L)));
    store.put(Documents.of(event(Kind.TIME_STATS, "prefill-0", NodeRole.PREFILL, prefillRid, room,
        "2026-08-27T12:00:54Z", 1L, null, null)));
    store.put(Documents.of(event(Kind.RECEIVED, "decode-0", NodeRole.DECODE, decodeRid, room,
        "2026-08-27T11:59:40Z", null, null, null)));
    store.put(Documents.of(event(Kind.TIME_STATS, "decode-0", NodeRole.DECODE, decodeRid, room,
        "2026-08-27T11:59:48Z", 707_640L, null, null)));
  }

  @Test
  void thePrefillSideJoinsThroughTheBootstrapRoomWithItsOwnRid() throws Exception {
    Path index = tmp.resolve("index");
    LinkSummary summary;
    try (IndexStore store = IndexStore.open(index)) {
      store.put(Documents.of(epoch("prefill-0", NodeRole.PREFILL, 681_280)));
      store.put(Documents.of(epoch("decode-0", NodeRole.DECODE, 2_400_000)));
      overLengthPair(store, DECODE_RID, PREFILL_RID, ROOM);
      store.put(Documents.of(request("chatcmpl-" + DECODE_RID, DECODE_RID, "2026-08-27T12:00:10Z")));

      summary = new Linker(store).run();
      store.commit();
      assertThat(new Linker(store).run().rewritten()).as("a second link changes nothing").isZero();
    }

    assertThat(summary.joined()).isEqualTo(1);
    assertThat(summary.byRole().decodeByRid()).isEqualTo(1);
    assertThat(summary.byRole().prefillByRoom()).isEqualTo(1);
    assertThat(summary.byRole().prefillByRid()).isZero();
    assertThat(summary.engineOnlyRids()).as("the prefill rid belongs to the request").isZero();
    assertThat(summary.byRole().unmatchedRids()).isEmpty();
    assertThat(summary.ambiguousRooms()).isZero();
    try (IndexSearch search = IndexSearch.open(index)) {
      Document linked = search.search("engine_rid:" + DECODE_RID + " AND doc_type:request", 1).documents().get(0);
      RequestRecord record = Documents.readRequest(linked);
      EngineFacts facts = Documents.readFacts(linked);
      assertThat(record.prefillNode()).isEqualTo("prefill-0");
      assertThat(record.decodeNode()).isEqualTo("decode-0");
      assertThat(record.engineInputLen()).as("the prefill node's one-token stub").isEqualTo(1L);
      assertThat(record.bootstrapRoom()).isEqualTo(ROOM);
      assertThat(facts.rejected()).as("the rejection names only the prefill rid").isTrue();
      assertThat(facts.requestedLen()).isEqualTo(707_640L);
      assertThat(facts.rejectionLimit()).isEqualTo(681_274L);
      assertThat(facts.prefillEpoch().poolTokens()).isEqualTo(681_280L);
      assertThat(facts.decodeEpoch().poolTokens()).isEqualTo(2_400_000L);
      assertThat(facts.events()).isEqualTo(5);
      assertThat(facts.ambiguousRoom()).as("one pair on the room").isNull();
      // each node's clock, learned from its own first line about the request
      assertThat(NodeClocks.load(search.reader()).skew("prefill-0")).isEqualTo(40_000L);
      assertThat(NodeClocks.load(search.reader()).skew("decode-0")).isEqualTo(-30_000L);
    }
  }

  @Test
  void theJoinAtWriteTimeAgreesWithTheLinker() throws Exception {
    try (IndexStore store = IndexStore.open(tmp.resolve("index"))) {
      store.put(Documents.of(epoch("prefill-0", NodeRole.PREFILL, 681_280)));
      overLengthPair(store, DECODE_RID, PREFILL_RID, ROOM);
      store.commit();
      try (EngineFactsAtWrite facts = EngineFactsAtWrite.open(store)) {
        store.put(facts.document(request("chatcmpl-" + DECODE_RID, DECODE_RID, "2026-08-27T12:00:10Z")));
      }
      store.commit();

      LinkSummary summary = new Linker(store).run();
      assertThat(summary.joined()).isEqualTo(1);
      assertThat(summary.rewritten()).as("written already linked, prefill side included").isZero();
    }
  }

  @Test
  void aRoomThatNamesSeveralOtherRidsIsAmbiguousAndJoinsThemAllButNeverAnotherRequestsRid() throws Exception {
    Path index = tmp.resolve("index");
    LinkSummary summary;
    try (IndexStore store = IndexStore.open(index)) {
      store.put(Documents.of(epoch("prefill-0", NodeRole.PREFILL, 681_280)));
      // room 7: the decode rid and two prefill rids (a reused room)
      overLengthPair(store, "d-crowded", "p-crowded-1", 7L);
      store.put(Documents.of(event(Kind.TIME_STATS, "prefill-0", NodeRole.PREFILL, "p-crowded-2", 7L,
          "2026-08-27T12:00:55Z", 2_000L, null, null)));
      store.put(Documents.of(request("gw-crowded", "d-crowded", "2026-08-27T12:00:10Z")));
      // room 8: the other rid is itself a gateway request
      overLengthPair(store, "d-collide", "p-collide", 8L);
      store.put(Documents.of(request("gw-collide", "d-collide", "2026-08-27T12:00:10Z")));
      store.put(Documents.of(request("gw-claims-prefill-rid", "p-collide", "2026-08-27T12:00:10Z")));

      summary = new Linker(store).run();
      store.commit();
    }

    // room 7 for gw-crowded; room 8 for gw-collide and, from its side, for gw-claims-prefill-rid
    assertThat(summary.ambiguousRooms()).isEqualTo(3);
    // a forged or reused rid on a room must not take the request's prefill side away: both join
    assertThat(summary.byRole().prefillByRoom()).isEqualTo(1);
    assertThat(summary.byRole().unmatchedRids()).isEmpty();
    try (IndexSearch search = IndexSearch.open(index)) {
      Document crowded = search.search("request_id:gw-crowded", 1).documents().get(0);
      assertThat(Documents.readRequest(crowded).prefillNode()).isEqualTo("prefill-0");
      assertThat(Documents.readRequest(crowded).engineInputLen()).as("the underrun one joined prefill rid shows")
          .isEqualTo(1L);
      Document collided = search.search("request_id:gw-collide", 1).documents().get(0);
      assertThat(Documents.readRequest(collided).engineInputLen()).as("decode's own count only").isEqualTo(707_640L);
      // each request's document names the room its facts were joined through, with what the room showed
      assertThat(Documents.readFacts(crowded).ambiguousRoom()).isEqualTo(new RoomRule.Ambiguity(7L, 3, 0));
      assertThat(Documents.readFacts(collided).ambiguousRoom()).isEqualTo(new RoomRule.Ambiguity(8L, 2, 1));
      Document claims = search.search("request_id:gw-claims-prefill-rid", 1).documents().get(0);
      assertThat(Documents.readFacts(claims).ambiguousRoom()).isEqualTo(new RoomRule.Ambiguity(8L, 2, 1));
    }
  }
}

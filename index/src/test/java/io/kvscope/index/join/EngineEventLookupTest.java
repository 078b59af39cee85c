package io.kvscope.index.join;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.EngineEvent.Kind;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.record.RequestRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.lucene.index.DirectoryReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineEventLookupTest {

  @TempDir Path tmp;

  private static EngineEvent event(int i, String rid, Long room) {
    Kind[] kinds = {Kind.RECEIVED, Kind.TIME_STATS, Kind.FINISHED};
    return new EngineEvent(kinds[i % kinds.length], "node-" + (i % 3), i % 2 == 0 ? NodeRole.DECODE : NodeRole.PREFILL,
        rid, room, 1_787_788_800_000L + i, 100L + i, null, null, (long) i, 7L, i % 5 == 0 ? 1.5 : null, null,
        i % 4 == 0 ? 250.0 + i : null, i % 3 == 2 ? "stop" : null, null, "engine-" + (i % 2) + ".log", i + 1);
  }

  /**
   * Events of 40 rids over three segments, in the interleaved order a log gives them, with request
   * documents between them and some events written twice (a replace: the first copy deleted): the
   * lookup over events decoded at once returns, rid by rid and room by room, what the lookup reading
   * each event's stored fields returns, and both what was written.
   */
  @Test
  void eventsDecodedAtOnceAreTheEventsReadOneByOne() throws Exception {
    Map<String, List<EngineEvent>> written = new LinkedHashMap<>();
    try (IndexStore store = IndexStore.open(tmp.resolve("idx"))) {
      int i = 0;
      for (int segment = 0; segment < 3; segment++) {
        for (int n = 0; n < 200; n++, i++) {
          String rid = "rid-" + (i * 7 % 40);
          Long room = i % 6 == 0 ? null : 9_000L + (i % 40) / 2;
          EngineEvent e = event(i, i % 11 == 0 ? null : rid, room);
          store.put(Documents.of(e));
          if (e.rid() != null) {
            written.computeIfAbsent(e.rid(), r -> new ArrayList<>()).add(e);
          }
          if (i % 9 == 0) {
            store.put(Documents.of(e)); // the same event again: replaces itself
          }
          if (n % 50 == 0) {
            store.put(Documents.request(RequestRecord.builder("q" + i).engineRid(rid).promptText("p " + i)
                .sourceFile("gw.jsonl").sourceLine(i).build()));
          }
        }
        store.commit();
      }
      try (DirectoryReader reader = store.openReader()) {
        assertThat(reader.leaves()).hasSizeGreaterThanOrEqualTo(2);
        EngineEventLookup oneByOne = new EngineEventLookup(reader);
        EngineEventLookup decoded = new EngineEventLookup(reader, EngineEventLookup.decodeAll(reader));
        for (Map.Entry<String, List<EngineEvent>> rid : written.entrySet()) {
          assertThat(decoded.eventsOf(rid.getKey())).as(rid.getKey())
              .containsExactlyInAnyOrderElementsOf(rid.getValue())
              .containsExactlyElementsOf(oneByOne.eventsOf(rid.getKey()));
          Set<Long> rooms = rid.getValue().stream().map(EngineEvent::bootstrapRoom).filter(Objects::nonNull)
              .collect(Collectors.toSet());
          assertThat(decoded.roomsOf(rid.getKey())).as(rid.getKey()).containsExactlyInAnyOrderElementsOf(rooms)
              .containsExactlyElementsOf(oneByOne.roomsOf(rid.getKey()));
          assertThat(decoded.requestsOf(rid.getKey())).as(rid.getKey())
              .containsExactlyElementsOf(oneByOne.requestsOf(rid.getKey()));
          assertThat(decoded.hasRequest(rid.getKey())).as(rid.getKey()).isEqualTo(oneByOne.hasRequest(rid.getKey()));
        }
        assertThat(written.keySet().stream().filter(decoded::hasRequest)).as("rids with requests").hasSize(4);
        for (long room = 9_000L; room < 9_020L; room++) {
          List<EngineEvent> ridlessDecoded = new ArrayList<>();
          List<EngineEvent> ridlessRead = new ArrayList<>();
          assertThat(decoded.ridsAt(room, 100, ridlessDecoded)).containsExactlyElementsOf(oneByOne.ridsAt(room, 100, ridlessRead));
          assertThat(ridlessDecoded).as("room %d", room).isNotEmpty().containsExactlyElementsOf(ridlessRead);
        }
      }
    }
  }

  /**
   * Requests under 30 rids over three segments, each segment's in the reverse of the rids' order,
   * some written again (the first copy deleted) and a rid with only engine events: asked rid by
   * rid, backwards and then forwards (the doc values a request is read from go forward only, and
   * a look-up keeps them for the next), the lookup returns each rid's live requests as written,
   * and says which rids have a request.
   */
  @Test
  void requestsUnderARidAreTheLiveOnesWrittenInAnyOrderOfAsking() throws Exception {
    Map<String, Map<String, Long>> written = new LinkedHashMap<>(); // rid -> request id -> start
    try (IndexStore store = IndexStore.open(tmp.resolve("idx"))) {
      store.put(Documents.of(event(1, "rid-events-only", 42L)));
      for (int segment = 0; segment < 3; segment++) {
        for (int r = 29; r >= 0; r--) {
          String rid = "rid-" + r;
          String requestId = "q" + segment + "-" + r;
          long start = 1_787_788_800_000L + segment * 1_000L + r;
          RequestRecord request = RequestRecord.builder(requestId).engineRid(rid).startTime(start - 500)
              .promptText("p " + requestId).sourceFile("gw-" + segment + ".jsonl").sourceLine(r + 1).build();
          store.put(Documents.request(request));
          if (r % 4 == 0) { // the same record again, started later: replaces the first
            request = request.toBuilder().startTime(start).build();
            store.put(Documents.request(request));
          }
          written.computeIfAbsent(rid, k -> new LinkedHashMap<>()).put(requestId, request.startTime());
          store.put(Documents.of(event(segment * 30 + r, rid, 7_000L + r)));
        }
        store.commit();
      }
      try (DirectoryReader reader = store.openReader()) {
        assertThat(reader.leaves()).hasSizeGreaterThanOrEqualTo(2);
        EngineEventLookup lookup = new EngineEventLookup(reader, EngineEventLookup.decodeAll(reader));
        EngineEventLookup byTerms = new EngineEventLookup(reader);
        List<String> rids = new ArrayList<>(written.keySet());
        List<String> backwardsThenForwards = new ArrayList<>(rids.reversed());
        backwardsThenForwards.addAll(rids);
        for (String rid : backwardsThenForwards) {
          Map<String, Long> found = new LinkedHashMap<>();
          for (EngineEventLookup.RequestDoc request : lookup.requestsOf(rid)) {
            assertThat(found.put(request.requestId(), request.start())).as("%s listed twice", request.requestId()).isNull();
          }
          assertThat(found).as(rid).isEqualTo(written.get(rid));
          assertThat(lookup.hasRequest(rid)).as(rid).isTrue();
          assertThat(byTerms.requestsOf(rid)).as("the same by term seeks, %s", rid).isEqualTo(lookup.requestsOf(rid));
          assertThat(byTerms.hasRequest(rid)).as(rid).isTrue();
        }
        for (EngineEventLookup asked : List.of(lookup, byTerms)) {
          assertThat(asked.requestsOf("rid-events-only")).isEmpty();
          assertThat(asked.hasRequest("rid-events-only")).isFalse();
          assertThat(asked.requestsOf("rid-nowhere")).isEmpty();
        }
        assertThat(lookup.eventsOf("rid-events-only")).hasSize(1);
      }
    }
  }

  /**
   * Events decoded for one reader and kept by segment, taken by a later reader of the same index
   * after some of those events were replaced (deleted where they were) and a segment was added:
   * the later decoding is the one made from scratch, document by document, and reads only the
   * added segment (the stored fields of the kept ones are not read again).
   */
  @Test
  void eventsKeptFromAnEarlierReaderAreTheLaterReadersOwn() throws Exception {
    try (IndexStore store = IndexStore.open(tmp.resolve("idx"))) {
      for (int i = 0; i < 300; i++) {
        store.put(Documents.of(event(i, "rid-" + i % 25, 5_000L + i % 25)));
        if (i % 100 == 99) {
          store.commit();
        }
      }
      DecodedEvents kept = new DecodedEvents();
      List<EngineEvent> before;
      try (DirectoryReader first = store.openReader()) {
        before = java.util.Arrays.stream(EngineEventLookup.decodeAll(first, kept)).filter(Objects::nonNull).toList();
      }
      int keptSegments = kept.segments();
      assertThat(before).hasSize(300);
      assertThat(keptSegments).isGreaterThanOrEqualTo(2);
      EngineEvent replaced = event(7, "rid-7", 5_007L);
      EngineEvent replacement = event(7, "rid-7-again", 5_007L);
      store.delete(Documents.idOf(replaced));
      store.put(Documents.of(replacement));
      for (int i = 300; i < 340; i++) {
        store.put(Documents.of(event(i, "rid-" + i % 25, null)));
      }
      store.commit();
      try (DirectoryReader later = store.openReader()) {
        EngineEvent[] fromKept = EngineEventLookup.decodeAll(later, kept);
        EngineEvent[] fresh = EngineEventLookup.decodeAll(later);
        assertThat(fromKept).containsExactly(fresh);
        List<EngineEvent> events = java.util.Arrays.stream(fromKept).filter(Objects::nonNull).toList();
        assertThat(events).hasSize(340).doesNotContain(replaced).contains(replacement);
        assertThat(kept.segments()).as("each segment kept once, under one key").isEqualTo(later.leaves().size());
        assertThat(new EngineEventLookup(later, fromKept).eventsOf("rid-7")).doesNotContain(replaced);
      }
    }
  }
}

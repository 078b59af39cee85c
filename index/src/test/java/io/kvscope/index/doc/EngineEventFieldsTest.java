package io.kvscope.index.doc;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.EngineEvent.Kind;
import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.StoredFields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Engine events read back from a real index on disk, in one pass over their stored fields. */
class EngineEventFieldsTest {

  @TempDir Path dir;

  /**
   * Every field of the event given its own value (so a value read into another field's place shows),
   * and events with each field left out in turn, with numbers that are not finite (never written).
   */
  private static List<EngineEvent> events() {
    List<EngineEvent> events = new ArrayList<>();
    Kind[] kinds = Kind.values();
    NodeRole[] roles = NodeRole.values();
    for (int i = 0; i < 60; i++) {
      int leftOut = i % 20;
      Double transferMb = i % 7 == 3 ? Double.NaN : 1.25 + i;
      Double transferMs = i % 9 == 4 ? Double.POSITIVE_INFINITY : 30.5 + i;
      events.add(new EngineEvent(kinds[i % kinds.length], "node-" + i, roles[i % roles.length],
          leftOut == 1 ? null : "rid-" + i, leftOut == 2 ? null : 9_000L + i, 1_787_788_800_000L + i,
          leftOut == 3 ? null : 100L + i, leftOut == 4 ? null : 200L + i, leftOut == 5 ? null : 300L + i,
          leftOut == 6 ? null : 400L + i, leftOut == 7 ? null : 500L + i, leftOut == 8 ? null : transferMb,
          leftOut == 9 ? null : transferMs, leftOut == 10 ? null : 700.75 + i, leftOut == 11 ? null : "stop-" + i,
          leftOut == 12 ? null : "detail " + i, "engine-" + i + ".log", leftOut == 13 ? 0 : 40L + i,
          leftOut == 14 ? null : "10.0.0." + i));
    }
    return events;
  }

  /** What the index keeps of an event: a number that is not finite is not written. */
  private static EngineEvent asWritten(EngineEvent e) {
    return new EngineEvent(e.kind(), e.node(), e.role(), e.rid(), e.bootstrapRoom(), e.time(), e.inputLen(),
        e.requestedLen(), e.limit(), e.cachedLen(), e.outputLen(), finite(e.transferMb()), finite(e.transferMillis()),
        finite(e.e2eLatencyMillis()), e.finishReason(), e.detail(), e.sourceFile(), e.sourceLine(), e.bootstrapHost());
  }

  private static Double finite(Double value) {
    return value == null || !Double.isFinite(value) ? null : value;
  }

  @Test
  void everyEngineEventComesBackAsWrittenWhetherReadWholeOrByItsFields() throws IOException {
    List<EngineEvent> written = events();
    Map<String, EngineEvent> byId = new HashMap<>();
    try (IndexStore store = IndexStore.open(dir)) {
      for (EngineEvent e : written) {
        Document doc = Documents.of(e);
        byId.put(doc.get(Schema.ID), asWritten(e));
        store.put(doc);
      }
      store.commit();
      try (DirectoryReader reader = store.openReader()) {
        StoredFields stored = reader.storedFields();
        assertThat(reader.maxDoc()).isEqualTo(written.size());
        for (int doc = 0; doc < reader.maxDoc(); doc++) {
          Document whole = stored.document(doc);
          EngineEvent expected = byId.get(whole.get(Schema.ID));
          assertThat(Documents.readEngineEvent(stored, doc)).as("by its fields").isEqualTo(expected);
          assertThat(Documents.readEngineEvent(whole)).as("read whole").isEqualTo(expected);
        }
      }
    }
  }
}

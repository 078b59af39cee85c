package io.kvscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.doc.Documents;
import io.kvscope.model.join.EngineFacts;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.ingest.record.RequestRecords;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rows read from doc values say what the stored request says, field for field, less its texts. */
class RequestRowsTest {

  @TempDir Path dir;

  private static ConfigEpoch epoch(String node, NodeRole role, long pool, long context) {
    return new ConfigEpoch(node, role, 0, pool, context, 64, "0.5.21", null, null, null, null, null, null,
        "sglang-log", null, 0);
  }

  @Test
  void aRowIsItsStoredRequestAndEngineFactsLessTheTexts() throws IOException {
    RequestRecord written = RequestRecords.everyFieldSet();
    EngineFacts facts = new EngineFacts(written.prefillNode(), written.decodeNode(), written.bootstrapRoom(),
        written.engineInputLen(), written.cachedTokens(), true, 900_000L, 262_144L, 24.5, 1, 2, 3,
        epoch(written.prefillNode(), NodeRole.PREFILL, 681_280L, 1_048_576L),
        epoch(written.decodeNode(), NodeRole.DECODE, 1_572_864L, 262_144L), 6,
        new io.kvscope.model.join.RoomRule.Ambiguity(written.bootstrapRoom() + 1, 3, 1));
    RequestRecord unlinked = RequestRecord.builder("unlinked").tenant("acme").statusCode(200).build();
    RequestRecord sameTenant = RequestRecord.builder("same-tenant").tenant("acme").model("m-2").build();

    Map<String, RequestRow> rows = new HashMap<>();
    Map<String, Document> stored = new HashMap<>();
    try (IndexStore store = IndexStore.open(dir)) {
      store.put(Documents.linkedRequest(written, facts));
      store.put(Documents.request(unlinked));
      store.put(Documents.request(sameTenant));
      store.commit();
      try (DirectoryReader reader = store.openReader()) {
        RequestRows.forEach(reader, row -> rows.put(row.record().requestId(), row));
        for (RequestRow row : rows.values()) {
          stored.put(row.record().requestId(), reader.storedFields().document(row.doc()));
        }
      }
    }

    RequestRow linked = rows.get(written.requestId());
    RequestRecord asStored = Documents.readRequest(stored.get(written.requestId()));
    // A row holds the field table's fields without the texts, not a kept record's extras.
    assertThat(linked.record()).isEqualTo(asStored.toBuilder().promptText(null).responseText(null).origin(null)
        .aliases(List.of()).quotedPromptTokens(null).quotedLimitTokens(null).provenance(null).build());
    assertThat(linked.record().tenant()).isEqualTo(written.tenant());
    assertThat(linked.facts()).isEqualTo(Documents.readFacts(stored.get(written.requestId())));
    assertThat(linked.facts().rejected()).isTrue();
    assertThat(linked.facts().transferMb()).isEqualTo(24.5);
    assertThat(linked.facts().ambiguousRoom()).as("read from doc values as stored")
        .isEqualTo(new io.kvscope.model.join.RoomRule.Ambiguity(written.bootstrapRoom() + 1, 3, 1));
    assertThat(linked.servingLimit()).isEqualTo(262_144L);
    assertThat(linked.poolTokens()).as("the prefill node's").isEqualTo(681_280L);
    assertThat(linked.contextLength()).as("the prefill node's").isEqualTo(1_048_576L);

    assertThat(rows.get("unlinked").record()).isEqualTo(unlinked);
    assertThat(rows.get("same-tenant").record()).as("a value kept from an earlier row").isEqualTo(sameTenant);
    assertThat(rows.get("unlinked").facts()).isEqualTo(EngineFacts.NONE);
    assertThat(rows.get("unlinked").servingLimit()).isNull();
  }

  @Test
  void everyWalkOfAnAnalysisSeesTheRowsOneReadGivesAndTheRangeFiltersThem() throws IOException {
    TestIndex test = new TestIndex(dir.resolve("index"));
    for (String start : List.of("2026-08-28T09:00:00Z", "2026-08-28T11:00:00Z", "2026-08-28T13:00:00Z")) {
      test.add(TestIndex.request("r-" + start.substring(11, 13), "acme", start, 100, 200).build());
    }
    try (io.kvscope.index.IndexSearch search = test.open()) {
      List<RequestRow> read = new java.util.ArrayList<>();
      RequestRows.forEach(search.reader(), read::add);
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults()
          .withRange(java.time.Instant.parse("2026-08-28T10:00:00Z"), java.time.Instant.parse("2026-08-28T12:00:00Z")));

      for (int walk = 0; walk < 3; walk++) {
        List<RequestRow> all = new java.util.ArrayList<>();
        context.forEachRow(all::add);
        assertThat(all).as("walk %d", walk).hasSize(3).isEqualTo(read);
        List<String> inRange = new java.util.ArrayList<>();
        context.forEachRequest(row -> inRange.add(row.record().requestId()));
        assertThat(inRange).containsExactly("gw-r-11");
      }
    }
  }
}

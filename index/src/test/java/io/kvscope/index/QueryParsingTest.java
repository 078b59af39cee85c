package io.kvscope.index;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.store.IndexStore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.ingest.record.RequestRecord;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.lucene.queryparser.classic.ParseException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryParsingTest {

  private static final String GATEWAY_ID = "chatcmpl-9f1c6e2b88";
  private static final String ENGINE_RID = "5d1f0a9c27e84b3a";
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String CALL_ID = "6f0c2a58-1d3e-4c55-9a61-0e7b2d9c4f10";

  @TempDir Path tmp;
  Path index;

  @BeforeEach
  void indexThreeRequests() throws Exception {
    index = tmp.resolve("index");
    try (IndexStore store = IndexStore.open(index)) {
      store.put(Documents.of(request("r1", "Acme-Corp", 700_000, "2026-08-28T10:00:00Z", 200, "the quarterly ledger")));
      store.put(Documents.of(request("r2", "acme", 2_000, "2026-08-20T10:00:00Z", 200, "weather in paris")));
      store.put(Documents.of(request("r3", "globex", 900_000, "2026-09-12T10:00:00Z", 400, "ledger reconciliation")));
      store.put(Documents.of(RequestRecord.builder(GATEWAY_ID).engineRid(ENGINE_RID).tenant("initech")
          .aliases(List.of("trace_id:" + TRACE_ID, "litellm_call_id:" + CALL_ID))
          .startTime(Instant.parse("2026-09-30T10:00:00Z").toEpochMilli()).statusCode(200)
          .promptText("a note on the acme account").sourceFile("t").sourceLine(4).build()));
      // Another request's text that quotes the first one's id: a bare id finds both.
      store.put(Documents.of(RequestRecord.builder("r5").tenant("hooli")
          .startTime(Instant.parse("2026-09-30T11:00:00Z").toEpochMilli()).statusCode(200)
          .promptText("why did " + GATEWAY_ID + " fail?").sourceFile("t").sourceLine(5).build()));
      store.commit();
    }
  }

  private static RequestRecord request(String id, String tenant, long promptTokens, String start, int status, String prompt) {
    return RequestRecord.builder(id).tenant(tenant).promptTokens(promptTokens)
        .startTime(Instant.parse(start).toEpochMilli()).statusCode(status).promptText(prompt)
        .sourceFile("t").sourceLine(1).build();
  }

  private long count(String query) throws Exception {
    try (IndexSearch search = IndexSearch.open(index)) {
      return search.search(query, 10).total();
    }
  }

  @Test
  void numericRangesUsePointsAndOpenEnds() throws Exception {
    assertThat(count("prompt_tokens:[681280 TO *]")).isEqualTo(2);
    assertThat(count("prompt_tokens:{2000 TO 900000}")).isEqualTo(1);
    assertThat(count("status_code:200 AND prompt_tokens:[681280 TO *]")).isEqualTo(1);
  }

  @Test
  void timeFieldsTakeDates() throws Exception {
    assertThat(count("start_time:[2026-08-27 TO 2026-09-10]")).isEqualTo(1);
  }

  @Test
  void keywordFieldsMatchExactlyAndBareWordsSearchText() throws Exception {
    assertThat(count("tenant:Acme-Corp")).isEqualTo(1);
    assertThat(count("tenant:acme")).isEqualTo(1);
    assertThat(count("ledger")).isEqualTo(2);
    assertThat(count("ledger AND tenant:globex")).isEqualTo(1);
  }

  @Test
  void timeRangesTakeTheTimesSinceTakes() throws Exception {
    assertThat(count("start_time:[2026-08-28T09:00 TO 2026-08-28T11:00]")).isEqualTo(1);
    assertThat(count("start_time:[\"2026-08-28 09:00\" TO \"2026-08-28 10:00:00\"]")).isEqualTo(1);
    assertThat(count("start_time:{\"2026-08-28 09:00\" TO \"2026-08-28 10:00:00\"}")).isZero();
    // 11:30 at +02:00 is 09:30 UTC: r1 (10:00 UTC) onwards.
    assertThat(count("start_time:[2026-08-28T11:30+02:00 TO 2026-09-13]")).isEqualTo(2);
    assertThat(count("start_time:[2026-08-28T10:00:00Z TO 2026-08-28T10:00:00Z]")).isEqualTo(1);
    assertThatThrownBy(() -> count("start_time:[tomorrowish TO *]")).isInstanceOf(ParseException.class)
        .hasMessageContaining("'2026-08-27 10:00'").hasMessageContaining("tomorrowish");
  }

  @Test
  void aPastedIdFindsItsRequestAndTheTextsThatQuoteIt() throws Exception {
    try (IndexSearch search = IndexSearch.open(index)) {
      assertThat(ids(search.search(GATEWAY_ID, 10))).containsExactlyInAnyOrder(GATEWAY_ID, "r5");
      assertThat(ids(search.search(ENGINE_RID, 10))).containsExactly(GATEWAY_ID);
      assertThat(ids(search.search(TRACE_ID, 10))).containsExactly(GATEWAY_ID);
      assertThat(ids(search.search(CALL_ID, 10))).containsExactly(GATEWAY_ID);
      assertThat(ids(search.search("5d1f0a9c", 10))).as("a part of an id is no id").isEmpty();
    }
    assertThat(count("ledger")).as("words still search text only").isEqualTo(2);
  }

  @Test
  void aBareTenantNameSaysItSearchedEveryTenantsText() throws Exception {
    try (IndexSearch search = IndexSearch.open(index)) {
      IndexSearch.Result acme = search.search("acme", 10);
      assertThat(ids(acme)).containsExactly(GATEWAY_ID); // initech's text mentions acme
      assertThat(acme.notes()).singleElement().asString().contains("'acme' is also a tenant")
          .contains("search tenant:acme");
      assertThat(search.search("ledger", 10).notes()).isEmpty();
      assertThat(search.search("tenant:acme", 10).notes()).isEmpty();
    }
  }

  private static List<String> ids(IndexSearch.Result result) {
    return result.documents().stream().map(d -> d.get(Schema.REQUEST_ID)).toList();
  }

  @Test
  void aNumberFieldGivenWordsIsAClearError() {
    assertThatThrownBy(() -> QueryParsing.parse("prompt_tokens:lots"))
        .isInstanceOf(ParseException.class).hasMessageContaining("prompt_tokens takes a whole number");
  }
}

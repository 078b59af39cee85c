package io.kvscope.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.ingest.record.RequestRecord;
import java.nio.file.Path;
import java.time.Instant;
import org.apache.lucene.queryparser.classic.ParseException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryParsingTest {

  @TempDir Path tmp;
  Path index;

  @BeforeEach
  void indexThreeRequests() throws Exception {
    index = tmp.resolve("index");
    try (IndexStore store = IndexStore.open(index)) {
      store.put(Documents.of(request("r1", "Acme-Corp", 700_000, "2026-08-28T10:00:00Z", 200, "the quarterly ledger")));
      store.put(Documents.of(request("r2", "acme", 2_000, "2026-08-20T10:00:00Z", 200, "weather in paris")));
      store.put(Documents.of(request("r3", "globex", 900_000, "2026-09-12T10:00:00Z", 400, "ledger reconciliation")));
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
  void aNumberFieldGivenWordsIsAClearError() {
    assertThatThrownBy(() -> QueryParsing.parse("prompt_tokens:lots"))
        .isInstanceOf(ParseException.class).hasMessageContaining("prompt_tokens takes a whole number");
  }
}

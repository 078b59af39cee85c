package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexTextSourceTest {

  @TempDir
  Path dir;

  private Path indexWithFixtureRequests() throws IOException {
    Path index = dir.resolve("index");
    try (IndexStore store = IndexStore.open(index)) {
      long line = 1;
      for (Map.Entry<String, String> owner : IncidentFixture.OWNER.entrySet()) {
        String id = owner.getKey();
        store.put(Documents.request(RequestRecord.builder(id)
            .engineRid(id.substring("chatcmpl-".length()))
            .tenant(owner.getValue())
            .startTime(IncidentFixture.T0.toEpochMilli())
            .promptText(IncidentFixture.PROMPTS.get(id))
            .responseText(IncidentFixture.RESPONSES.get(id))
            .sourceFile("gateway.jsonl")
            .sourceLine(line++)
            .build()));
      }
      store.commit();
    }
    return index;
  }

  @Test
  void looksTextsUpByRequestIdOrEngineRid() throws IOException {
    try (IndexSearch search = IndexSearch.open(indexWithFixtureRequests())) {
      TextSource texts = new IndexTextSource(search);
      assertThat(texts.text(IncidentFixture.GX_REQ_1, TextSource.RESPONSE)).isEqualTo(IncidentFixture.GX_RESPONSE_1);
      assertThat(texts.text(IncidentFixture.NW_REQ_1, TextSource.PROMPT)).isEqualTo(IncidentFixture.PROMPTS.get(IncidentFixture.NW_REQ_1));
      assertThat(texts.text(IncidentFixture.IT_REQ_1.substring(9), TextSource.RESPONSE)).isEqualTo(IncidentFixture.IT_RESPONSE_1);
      assertThat(texts.text("chatcmpl-unknown", TextSource.RESPONSE)).isNull();
      assertThat(texts.text(IncidentFixture.GX_REQ_1, "tenant")).isNull();
      assertThat(texts.text(IncidentFixture.GX_REQ_2, TextSource.RESPONSE)).isNull(); // no body stored
    }
  }

  /** A request logged twice with other texts: each copy is found by the record a span names it by, the kept text by none. */
  @Test
  void looksALoggedCopyUpByTheRecordItWasReadFrom() throws IOException {
    Path index = indexWithFixtureRequests();
    RequestRecord request = RequestRecord.builder(IncidentFixture.GX_REQ_1)
        .engineRid(IncidentFixture.GX_REQ_1.substring("chatcmpl-".length())).build();
    String key = io.kvscope.ingest.merge.RequestMerge.keyOf(request);
    try (IndexStore store = IndexStore.open(index)) {
      store.put(Documents.textCopy(key, new io.kvscope.ingest.merge.TextCopy(TextSource.RESPONSE, "the reply as retried",
          "gateway retry.jsonl:4", "gateway gateway.jsonl:1", false)));
      store.put(Documents.textCopy(key, new io.kvscope.ingest.merge.TextCopy(TextSource.PROMPT, "the prompt as traced",
          "otlp spans.jsonl:9", "gateway gateway.jsonl:1", true)));
      store.commit();
    }
    try (IndexSearch search = IndexSearch.open(index)) {
      TextSource texts = new IndexTextSource(search);
      assertThat(texts.text(IncidentFixture.GX_REQ_1, TextSource.RESPONSE, "gateway retry.jsonl:4"))
          .isEqualTo("the reply as retried");
      assertThat(texts.text(IncidentFixture.GX_REQ_1.substring(9), TextSource.PROMPT, "otlp spans.jsonl:9"))
          .isEqualTo("the prompt as traced");
      assertThat(texts.text(IncidentFixture.GX_REQ_1, TextSource.RESPONSE, null)).isEqualTo(IncidentFixture.GX_RESPONSE_1);
      assertThat(texts.text(IncidentFixture.GX_REQ_1, TextSource.PROMPT, "gateway retry.jsonl:4")).isNull();
      assertThat(texts.text(IncidentFixture.NW_REQ_1, TextSource.RESPONSE, "gateway retry.jsonl:4")).isNull();
    }
  }

  @Test
  void reportsShowLeakedSpansFromTheIndex() throws IOException {
    try (IndexSearch search = IndexSearch.open(indexWithFixtureRequests())) {
      Path out = dir.resolve("out");
      WriteOptions options = WriteOptions.defaults().withText(new IndexTextSource(search))
          .withFormats(Set.of(Format.MARKDOWN));
      ReportWriters.writeAll(IncidentFixture.incident(), out, options);
      String redacted = Files.readString(out.resolve("report.md"));
      assertThat(redacted).contains(search.redaction().hash(IncidentFixture.GX_SECRET)).doesNotContain("Kestrel");

      ReportWriters.writeAll(IncidentFixture.incident(), out, options.withReveal(true));
      assertThat(Files.readString(out.resolve("report.md"))).contains(IncidentFixture.GX_SECRET);
    }
  }

  @Test
  void askingAgainGivesTheSameTextsAsTheIndexHolds() throws IOException {
    try (IndexSearch search = IndexSearch.open(indexWithFixtureRequests())) {
      TextSource texts = new IndexTextSource(search);
      for (int round = 0; round < 3; round++) {
        for (String id : IncidentFixture.OWNER.keySet()) {
          assertThat(texts.text(id, TextSource.PROMPT)).as("%s round %d", id, round).isEqualTo(IncidentFixture.PROMPTS.get(id));
          assertThat(texts.text(id, TextSource.RESPONSE)).as("%s round %d", id, round)
              .isEqualTo(IncidentFixture.RESPONSES.get(id));
          assertThat(texts.text(id.substring("chatcmpl-".length()), TextSource.RESPONSE)).as("by engine rid")
              .isEqualTo(IncidentFixture.RESPONSES.get(id));
        }
        assertThat(texts.text("chatcmpl-unknown", TextSource.PROMPT)).isNull();
      }
    }
  }
}

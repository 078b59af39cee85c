package io.kvscope.gui.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kvscope.model.finding.Finding;
import io.kvscope.gui.IncidentFixture;
import io.kvscope.ingest.record.RequestRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.lucene.queryparser.classic.ParseException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexDataTest {

  @TempDir static Path dir;
  static IncidentFixture.Incident incident;
  static IndexData index;

  @BeforeAll
  static void open() throws Exception {
    incident = IncidentFixture.write(dir.resolve("index"), 20, 11L);
    index = IndexData.open(dir.resolve("index"));
  }

  @AfterAll
  static void close() throws Exception {
    index.close();
  }

  @Test
  void readsARequestBackByRequestIdOrByEngineRidWithItsTextsAndEngineFacts() throws Exception {
    RequestRecord source = incident.first().source();
    RequestRecord recipient = incident.first().recipient();

    StoredRequest byId = index.request(source.requestId(), null).orElseThrow();
    StoredRequest byRid = index.request("unknown-gateway-id", recipient.engineRid()).orElseThrow();

    assertThat(byId.record().promptText()).isEqualTo(source.promptText());
    assertThat(byRid.record().requestId()).isEqualTo(recipient.requestId());
    assertThat(byRid.record().responseText()).isEqualTo(recipient.responseText());
    assertThat(byRid.facts().rejected()).isTrue();
    assertThat(byRid.facts().prefillEpoch().poolTokens()).isEqualTo(IncidentFixture.POOL);
    assertThat(index.request("nope", "nope")).isEmpty();
    assertThat(index.requestCount()).isEqualTo(incident.requests().size());
    // Epochs as the audit judges them: every epoch of the fixture (all from logs, no clock skew).
    assertThat(index.nodeEpochs()).extracting(e -> e.epoch().node() + "@" + e.start().toEpochMilli())
        .containsExactlyInAnyOrderElementsOf(incident.epochs().stream().map(e -> e.node() + "@" + e.start()).toList());
  }

  @Test
  void aSearchReportsWhichFindingRequestsItMatched() throws Exception {
    List<String> ids = new ArrayList<>();
    for (Finding f : incident.report().findings()) {
      if (f.requestId() != null) {
        ids.add(f.requestId());
      }
    }
    // Every leaked response quotes a source's CONFIDENTIAL ledger entry; nothing else says it.
    Set<String> recipients = incident.leaks().stream().map(l -> l.recipient().requestId()).collect(Collectors.toSet());
    long sourcesAndRecipients = incident.leaks().size() * 2L;

    SearchHits hits = index.matching("confidential", ids);

    assertThat(hits.ids()).isEqualTo(recipients);
    assertThat(hits.totalMatches()).isEqualTo(sourcesAndRecipients);

    String globex = "tenant:globex AND response_text:confidential";
    Set<String> globexRecipients = incident.leaks().stream().filter(l -> l.recipient().tenant().equals("globex"))
        .map(l -> l.recipient().requestId()).collect(Collectors.toSet());
    assertThat(index.matching(globex, ids).ids()).isEqualTo(globexRecipients);
  }

  @Test
  void aMalformedQueryIsAParseError() {
    assertThatThrownBy(() -> index.matching("prompt_tokens:[abc TO", List.of("x"))).isInstanceOf(ParseException.class);
  }
}

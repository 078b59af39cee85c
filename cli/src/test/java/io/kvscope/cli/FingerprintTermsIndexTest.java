package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.WordTokens;
import io.kvscope.index.fingerprint.FingerprintFields;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.RequestRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index an earlier kvscope built holds the fingerprints as terms, which this one reads as points:
 * {@code analyze} on it stops and says why, rather than report no overlap because it found none.
 */
class FingerprintTermsIndexTest {

  @TempDir Path tmp;

  @Test
  void analyzingAnIndexWhoseFingerprintsAreTermsStopsInWordsWithNoReport() throws Exception {
    Path index = tmp.resolve("old");
    FieldType asTerms = new FieldType(); // how builds before 2026-12-07 wrote them
    asTerms.setIndexOptions(IndexOptions.DOCS);
    asTerms.setTokenized(false);
    asTerms.setOmitNorms(true);
    asTerms.freeze();
    try (FSDirectory directory = FSDirectory.open(index);
        IndexWriter writer = new IndexWriter(directory, IndexStore.writerConfig())) {
      for (String tenant : List.of("acme", "globex")) {
        Document doc = Documents.request(RequestRecord.builder("r-" + tenant).tenant(tenant)
            .promptText("the same words in two tenants' prompts").responseText("and in their replies")
            .startTime(1_787_788_800_000L).sourceFile("gw.jsonl").sourceLine(tenant.length()).build());
        for (String field : List.of(FingerprintFields.PROMPT, FingerprintFields.RESPONSE)) {
          doc.removeFields(field);
          doc.add(new Field(field, FingerprintFields.packed(42), asTerms)); // one shared fingerprint
        }
        writer.addDocument(doc);
      }
      writer.setLiveCommitData(Map.of(IndexStore.FINGERPRINT_SCHEME, Documents.FINGERPRINTS.schemeId(),
          IndexStore.TEXT_WORDS, WordTokens.SCHEME).entrySet());
      writer.commit();
    }

    CliTestSupport.Run run = CliTestSupport.run("analyze", "--index", index.toString(), "--out",
        tmp.resolve("out").toString(), "-q");

    assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ExitCodes.ERROR);
    assertThat(run.err()).contains("built by an earlier kvscope").contains("are terms")
        .contains("ingest the incident again");
    assertThat(tmp.resolve("out/report.json")).doesNotExist();
  }
}

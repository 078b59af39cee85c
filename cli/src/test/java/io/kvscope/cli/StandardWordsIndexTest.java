package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.RequestRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index an earlier kvscope built holds Lucene's standard words in its text fields, not the leak
 * model's this one writes and looks up: ingest, search and analyze on it stop and say to ingest
 * again, rather than miss what it holds.
 */
class StandardWordsIndexTest {

  @TempDir Path tmp;

  @Test
  void ingestSearchAndAnalyzeOnAnIndexOfStandardWordsStopInWords() throws Exception {
    Path index = tmp.resolve("old");
    FieldType text = new FieldType(TextField.TYPE_STORED);
    text.setOmitNorms(true);
    var standard = new org.apache.lucene.index.IndexWriterConfig(new PerFieldAnalyzerWrapper(new KeywordAnalyzer(),
        Map.of(Schema.PROMPT_TEXT, new StandardAnalyzer(), Schema.RESPONSE_TEXT, new StandardAnalyzer())));
    try (FSDirectory directory = FSDirectory.open(index); IndexWriter writer = new IndexWriter(directory, standard)) {
      for (String tenant : List.of("acme", "globex")) {
        Document doc = Documents.request(RequestRecord.builder("r-" + tenant).tenant(tenant)
            .promptText("write to john.doe@example.com").responseText("noted, john.doe@example.com")
            .startTime(1_787_788_800_000L).sourceFile("gw.jsonl").sourceLine(tenant.length()).build());
        for (String field : Schema.TEXT_FIELDS) { // given to the standard analyzer, as builds before 2026-12-07 did
          String value = doc.get(field);
          doc.removeField(field);
          doc.add(new Field(field, value, text));
        }
        writer.addDocument(doc);
      }
      writer.setLiveCommitData(Map.of(IndexStore.FINGERPRINT_SCHEME, Documents.FINGERPRINTS.schemeId()).entrySet());
      writer.commit();
    }
    Path logs = Files.createDirectories(tmp.resolve("logs"));
    Files.writeString(logs.resolve("gw.jsonl"), "{}\n");

    for (List<String> command : List.of(
        List.of("search", "--index", index.toString(), "john"),
        List.of("analyze", "--index", index.toString(), "--out", tmp.resolve("out").toString(), "-q"),
        List.of("ingest", logs.toString(), "--index", index.toString(), "-q"))) {
      CliTestSupport.Run run = CliTestSupport.run(command.toArray(String[]::new));

      assertThat(run.exitCode()).as(command + ": " + run.out() + run.err()).isEqualTo(ExitCodes.ERROR);
      assertThat(run.err()).as(command.getFirst()).contains("older kvscope").contains("Lucene's standard words")
          .contains("ingest again into a new index directory");
    }
    assertThat(tmp.resolve("out/report.json")).doesNotExist();
  }
}

package io.kvscope.index.doc;

import io.kvscope.model.join.EngineFacts;
import io.kvscope.index.store.IndexStore;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.record.CanonicalField;
import io.kvscope.ingest.record.Provenance;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.ingest.record.RequestRecords;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.StoredFields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The field table (CanonicalField) drives a request's document both ways, through a real index on disk. */
class DocumentsRoundTripTest {

  @TempDir Path dir;

  /** Every stored document of the index by its id, as read back from disk. */
  private Map<String, Document> writeAndReadBack(Document... docs) throws IOException {
    Map<String, Document> byId = new HashMap<>();
    try (IndexStore store = IndexStore.open(dir)) {
      for (Document doc : docs) {
        store.put(doc);
      }
      store.commit();
      try (DirectoryReader reader = store.openReader()) {
        StoredFields stored = reader.storedFields();
        for (int doc = 0; doc < reader.maxDoc(); doc++) {
          Document read = stored.document(doc);
          byId.put(read.get(Schema.ID), read);
        }
      }
    }
    return byId;
  }

  @Test
  void everyFieldOfARequestComesBackEqualFromTheIndex() throws IOException {
    RequestRecord written = RequestRecords.everyFieldSet();
    for (CanonicalField field : CanonicalField.values()) {
      assertThat(field.get(written)).as(field.column()).isNotNull();
    }

    Document read = writeAndReadBack(Documents.request(written)).get(Documents.requestDocumentId(written));

    assertThat(Documents.readRequest(read)).isEqualTo(written);
    assertThat(Documents.readFacts(read)).as("not linked").isEqualTo(EngineFacts.NONE);
  }

  @Test
  void eachFieldIsIndexedAsItsSchemaKindSays() throws IOException {
    writeAndReadBack(Documents.request(RequestRecords.everyFieldSet()));
    try (IndexStore store = IndexStore.open(dir); DirectoryReader reader = store.openReader()) {
      FieldInfos infos = FieldInfos.getMergedFieldInfos(reader);
      for (CanonicalField field : CanonicalField.values()) {
        FieldInfo info = infos.fieldInfo(field.column());
        assertThat(Schema.kindOf(field.column())).as(field.column()).isEqualTo(Schema.kindOf(field));
        switch (Schema.kindOf(field)) {
          case KEYWORD -> {
            assertThat(info.getDocValuesType()).as(field.column()).isEqualTo(DocValuesType.SORTED_SET);
            assertThat(info.getIndexOptions()).as(field.column()).isEqualTo(IndexOptions.DOCS);
          }
          case LONG -> {
            assertThat(info.getDocValuesType()).as(field.column()).isEqualTo(DocValuesType.SORTED_NUMERIC);
            assertThat(info.getPointDimensionCount()).as(field.column()).isEqualTo(1);
          }
          case TEXT -> {
            assertThat(info.getDocValuesType()).as(field.column()).isEqualTo(DocValuesType.NONE);
            assertThat(info.getIndexOptions()).as(field.column()).isEqualTo(IndexOptions.DOCS_AND_FREQS_AND_POSITIONS);
          }
          case DOUBLE -> throw new AssertionError("no request field is a double: " + field);
        }
      }
    }
  }

  @Test
  void aKeptRecordComesBackEqualWithTheTextItSharesTakenFromItsRequest() throws IOException {
    RequestRecord asRead = RequestRecords.everyFieldSet().toBuilder().provenance(null).build();
    RequestRecord request = asRead.toBuilder().responseText("the merged request's own response")
        .provenance(new Provenance(2, List.of(), List.of(), 0)).build();

    Map<String, Document> read = writeAndReadBack(Documents.source(asRead, request), Documents.request(request));
    Document source = read.get(Documents.sourceDocumentId(asRead));

    assertThat(source.getValues(Documents.SOURCE_FIELD + Schema.TEXT_IN_REQUEST)).containsExactly(Schema.PROMPT_TEXT);
    assertThat(source.get(Documents.SOURCE_FIELD + Schema.PROMPT_TEXT)).as("stored once, in the request").isNull();
    assertThat(Documents.readSource(source, read.get(Documents.requestDocumentId(request)))).isEqualTo(asRead);
  }
}

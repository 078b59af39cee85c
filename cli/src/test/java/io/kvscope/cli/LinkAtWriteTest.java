package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.index.IndexIngest;
import io.kvscope.index.store.IndexStore;
import io.kvscope.index.IngestProgress;
import io.kvscope.index.IngestSummary;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.TypedDocs;
import io.kvscope.ingest.IngestOptions;
import io.kvscope.ingest.Ingestors;
import io.kvscope.samples.GeneratorOptions;
import io.kvscope.samples.IncidentGenerator;
import io.kvscope.samples.OutputCompression;
import io.kvscope.samples.Scale;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests read after the engine logs are written already joined to their engine facts; the index
 * must be exactly the one the rid join (Linker) makes when it rewrites the requests itself.
 */
class LinkAtWriteTest {

  @TempDir Path tmp;

  private static IngestSummary ingest(Path index, Path... inputs) throws Exception {
    try (IndexStore store = IndexStore.open(index)) {
      return new IndexIngest(store, Ingestors.discover(), IngestOptions.defaults(), IngestProgress.NONE,
          Clock.systemUTC()).run(List.of(inputs));
    }
  }

  /** request_id -> every stored field of the request, in field order. */
  private static Map<String, String> requests(Path index) throws Exception {
    Map<String, String> requests = new TreeMap<>();
    try (FSDirectory dir = FSDirectory.open(index); DirectoryReader reader = DirectoryReader.open(dir)) {
      TypedDocs.forEach(reader, Schema.TYPE_REQUEST, doc -> {
        StringBuilder fields = new StringBuilder();
        for (IndexableField field : doc.getFields()) {
          if (!field.name().equals(Schema.SOURCE_FILE)) { // the two runs read the same files from different paths
            fields.append(field.name()).append('=').append(field.stringValue() != null ? field.stringValue() : field.numericValue()).append('\n');
          }
        }
        requests.put(doc.get(Schema.ID), fields.toString());
      });
    }
    return requests;
  }

  @Test
  void requestsJoinedAtWriteEqualRequestsTheLinkerRewrote() throws Exception {
    Path incident = tmp.resolve("incident");
    new IncidentGenerator().generate(incident,
        GeneratorOptions.incident(3, Scale.times(0.04)).withCompression(OutputCompression.PLAIN));

    Path atWrite = tmp.resolve("at-write");
    IngestSummary oneRun = ingest(atWrite, incident);

    Path rewritten = tmp.resolve("rewritten");
    ingest(rewritten, incident.resolve("gateway"), incident.resolve("traces"));
    // the engine versions are on record in the deployment folder, read with the engine logs
    IngestSummary engineLater = ingest(rewritten, incident.resolve("engine"), incident.resolve("deployment"));

    assertThat(oneRun.link().joined()).isGreaterThan(50);
    assertThat(oneRun.link().rewritten()).as("nothing left for the Linker to rewrite").isZero();
    assertThat(engineLater.link().rewritten()).isEqualTo(engineLater.link().joined());
    Map<String, String> linkedAtWrite = requests(atWrite);
    assertThat(linkedAtWrite).hasSize((int) oneRun.link().requests());
    assertThat(linkedAtWrite).isEqualTo(requests(rewritten));
  }
}

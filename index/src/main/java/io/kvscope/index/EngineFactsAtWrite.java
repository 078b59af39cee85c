package io.kvscope.index;

import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.RequestRecord;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Builds request documents with their engine facts already joined, from a point-in-time view of
 * the engine events indexed so far. Ingest reads engine logs before gateway logs, so nearly every
 * request is written once, already linked, and the {@link Linker} finds its signature unchanged;
 * without this every request document (multi-megabyte prompts included) was written twice.
 *
 * <p>The {@link Linker} stays the authority: it re-folds every rid after the ingest, and a request
 * whose facts changed since (engine events read after it) is rewritten as before. Both build the
 * document with {@link Documents#linkedRequest}, so a request written here is exactly what the
 * Linker would have written. Safe for concurrent use by the writer threads.
 */
final class EngineFactsAtWrite implements Closeable {

  private static final BytesRef ENGINE_EVENT = new BytesRef(Schema.TYPE_ENGINE_EVENT);

  private final DirectoryReader reader;
  private final Epochs epochs;

  private EngineFactsAtWrite(DirectoryReader reader, Epochs epochs) {
    this.reader = reader;
    this.epochs = epochs;
  }

  /** A view of everything written to {@code store} so far (flush the writers first). */
  static EngineFactsAtWrite open(IndexStore store) throws IOException {
    DirectoryReader reader = store.openReader();
    try {
      return new EngineFactsAtWrite(reader, Epochs.load(reader));
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  /** The document for {@code item}: a request with engine events is linked, the rest as usual. */
  Document document(Ingested item) {
    if (item instanceof RequestRecord request && request.engineRid() != null && !request.engineRid().isBlank()) {
      List<EngineEvent> events = events(request.engineRid());
      if (!events.isEmpty()) {
        return Documents.linkedRequest(request, EngineFacts.fold(events, epochs));
      }
    }
    return Documents.of(item);
  }

  /** The live engine events about {@code rid}; request documents under the same rid are not read. */
  private List<EngineEvent> events(String rid) {
    List<EngineEvent> events = new ArrayList<>();
    BytesRef term = new BytesRef(rid);
    try {
      for (LeafReaderContext context : reader.leaves()) {
        LeafReader leaf = context.reader();
        Terms terms = leaf.terms(Schema.ENGINE_RID);
        if (terms == null) {
          continue;
        }
        TermsEnum termsEnum = terms.iterator();
        if (!termsEnum.seekExact(term)) {
          continue;
        }
        SortedSetDocValues types = leaf.getSortedSetDocValues(Schema.DOC_TYPE);
        long eventOrd = types == null ? -1 : types.lookupTerm(ENGINE_EVENT);
        if (eventOrd < 0) {
          continue;
        }
        Bits live = leaf.getLiveDocs();
        PostingsEnum docs = termsEnum.postings(null, PostingsEnum.NONE);
        StoredFields stored = null;
        for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
          // The type from doc values: a request's stored fields hold its whole prompt.
          if ((live != null && !live.get(doc)) || !types.advanceExact(doc) || types.nextOrd() != eventOrd) {
            continue;
          }
          if (stored == null) {
            stored = leaf.storedFields();
          }
          events.add(Documents.readEngineEvent(stored.document(doc)));
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("cannot read engine events from the index", e);
    }
    return events;
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}

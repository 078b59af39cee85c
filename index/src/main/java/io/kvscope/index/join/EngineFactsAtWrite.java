package io.kvscope.index.join;

import io.kvscope.model.join.EngineFacts;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.nodes.Epochs;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.Ingested;
import io.kvscope.ingest.record.RequestRecord;
import java.io.Closeable;
import java.io.IOException;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;

/**
 * Builds request documents with their engine facts already joined ({@link RequestEvents}: by rid,
 * and the prefill side through the bootstrap room), from a point-in-time view of the engine events
 * indexed so far. Ingest reads engine logs before gateway logs, so nearly every
 * request is written once, already linked, and the {@link Linker} finds its signature unchanged;
 * without this every request document (multi-megabyte prompts included) was written twice.
 *
 * <p>The {@link Linker} stays the authority: it re-folds every rid after the ingest, and a request
 * whose facts changed since (engine events read after it) is rewritten as before. Both build the
 * document with {@link Documents#linkedRequest}, so a request written here is exactly what the
 * Linker would have written. Safe for concurrent use by the writer threads.
 */
public final class EngineFactsAtWrite implements Closeable {

  private final DirectoryReader reader;
  private final Epochs epochs;
  /**
   * One join per writer thread, kept for this view's life: a lookup's enumerations are not
   * shareable, and opening them for every request cost more than the look-ups.
   */
  private final ThreadLocal<RequestEvents> joins;

  private EngineFactsAtWrite(DirectoryReader reader, Epochs epochs, EngineEvent[] decoded) {
    this.reader = reader;
    this.epochs = epochs;
    this.joins = ThreadLocal.withInitial(() -> new RequestEvents(new EngineEventLookup(reader, decoded)));
  }

  /** A view of everything written to {@code store} so far (flush the writers first). */
  public static EngineFactsAtWrite open(IndexStore store) throws IOException {
    return open(store, new DecodedEvents());
  }

  /** {@link #open(IndexStore)}, leaving the events it decodes in {@code decoded} for the {@link Linker}. */
  public static EngineFactsAtWrite open(IndexStore store, DecodedEvents decoded) throws IOException {
    DirectoryReader reader = store.openReader();
    try {
      return new EngineFactsAtWrite(reader, Epochs.load(reader), EngineEventLookup.decodeAll(reader, decoded));
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  /** The document for {@code item}: a request with engine events is linked, the rest as usual. */
  public Document document(Ingested item) {
    if (item instanceof RequestRecord request && request.engineRid() != null && !request.engineRid().isBlank()) {
      RequestEvents.Joined joined = joins.get().of(request.engineRid());
      if (!joined.all().isEmpty()) {
        return Documents.linkedRequest(request, joined.facts(epochs));
      }
    }
    return Documents.of(item);
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}

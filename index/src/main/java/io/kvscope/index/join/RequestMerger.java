package io.kvscope.index.join;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.store.DocumentWriters;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.merge.RequestMerge;
import io.kvscope.ingest.merge.TextCopy;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.MultiBits;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Makes one request document of the records of one request (the gateway's line, a trace's span,
 * the same line shipped twice), by the rules of {@link RequestMerge}. Runs after the files of an
 * ingest are written and before the engine join ({@link Linker}).
 *
 * <p>Every record is written as read ({@code o:}, with a {@link Schema#PENDING_KEY}); a request
 * with one record stays that way. When a request has several, the merge writes the request
 * ({@code r:}) and keeps each record as a {@link Schema#TYPE_REQUEST_SOURCE} document ({@code s:}),
 * so that a later record is merged with all of them again: the result depends only on the set of
 * records, never on the order they came in, and nothing read is ever dropped. Each text the merged
 * request does not hold (records that disagree on the reply or the prompt) is kept as a
 * {@link Schema#TYPE_TEXT_COPY} document ({@code d:}) under the same key.
 *
 * <p>One walk over the pending keys finds the requests to merge; memory holds one request's records
 * at a time. A kill in the middle loses nothing: the pending records stay pending until their
 * request is committed merged.
 */
public final class RequestMerger {

  private static final int SAMPLE = 10;
  /** Requests merged between commits: bounds the work a kill can cost. */
  private static final int COMMIT_EVERY = 5_000;

  private final IndexStore store;
  private final DocumentWriters writers;

  public RequestMerger(IndexStore store, DocumentWriters writers) {
    this.store = store;
    this.writers = writers;
  }

  /** Merges every request that has a record not merged yet. Call with everything flushed. */
  public MergeSummary run() throws IOException {
    Counts counts = new Counts();
    try (DirectoryReader reader = store.openReader()) {
      Terms pending = MultiTerms.getTerms(reader, Schema.PENDING_KEY);
      Terms keys = MultiTerms.getTerms(reader, Schema.REQUEST_KEY);
      if (pending == null || keys == null) {
        return MergeSummary.NONE;
      }
      Bits live = MultiBits.getLiveDocs(reader);
      StoredFields stored = reader.storedFields();
      TermsEnum pendingKeys = pending.iterator();
      TermsEnum groups = keys.iterator();
      PostingsEnum postings = null;
      try (EngineFactsAtWrite facts = EngineFactsAtWrite.open(store)) {
        for (BytesRef key = pendingKeys.next(); key != null; key = pendingKeys.next()) {
          postings = pendingKeys.postings(postings, PostingsEnum.NONE);
          if (firstLive(postings, live) == DocIdSetIterator.NO_MORE_DOCS || !groups.seekExact(key)) {
            continue;
          }
          postings = groups.postings(postings, PostingsEnum.NONE);
          List<Integer> group = new ArrayList<>(2);
          for (int doc = firstLive(postings, live); doc != DocIdSetIterator.NO_MORE_DOCS; doc = nextLive(postings, live)) {
            group.add(doc);
          }
          if (group.size() < 2) {
            continue; // a request of one record: already what the analysis reads
          }
          merge(group, stored, facts, counts);
          if (++counts.sinceCommit >= COMMIT_EVERY) {
            writers.flush();
            store.commit();
            counts.sinceCommit = 0;
          }
        }
        writers.flush(); // documents still being built read engine facts through this view
      }
    }
    return new MergeSummary(counts.recordsMerged, counts.identicalCopies, counts.requestsMerged,
        counts.requestsWithConflicts, counts.samples);
  }

  /** One request's documents: the merged request (if any), its kept records, its new records. */
  private void merge(List<Integer> group, StoredFields stored, EngineFactsAtWrite facts, Counts counts)
      throws IOException {
    Document merged = null;
    Map<String, Document> kept = new LinkedHashMap<>();    // s:<digest>
    Map<String, Document> arrived = new LinkedHashMap<>(); // o:<digest>
    List<String> copiesBefore = new ArrayList<>();         // d:<digest>
    for (int doc : group) {
      Document document = stored.document(doc);
      String id = document.get(Schema.ID);
      switch (id.substring(0, 2)) {
        case "r:" -> merged = document;
        case "s:" -> kept.put(id.substring(2), document);
        case "o:" -> arrived.put(id.substring(2), document);
        case "d:" -> copiesBefore.add(id);
        default -> { } // not a request document (cannot share the key field)
      }
    }
    // A record read again replaces its kept copy; one never kept before is new.
    Map<String, RequestRecord> records = new LinkedHashMap<>();
    List<RequestRecord> before = new ArrayList<>();
    for (Map.Entry<String, Document> entry : kept.entrySet()) {
      RequestRecord record = Documents.readSource(entry.getValue(), merged);
      records.put(entry.getKey(), record);
      before.add(record);
    }
    long arrivals = 0;
    for (Map.Entry<String, Document> entry : arrived.entrySet()) {
      // As its gateway logged it: what a write-time link filled is joined again on the merged request.
      if (records.put(entry.getKey(), Documents.readGatewayRequest(entry.getValue())) == null) {
        arrivals++;
      }
    }
    List<RequestRecord> all = List.copyOf(records.values());
    RequestRecord request = RequestMerge.merge(all);

    submit(request, () -> facts.document(request));
    for (RequestRecord record : all) {
      submit(record, () -> Documents.source(record, request));
    }
    for (String digest : arrived.keySet()) {
      store.delete("o:" + digest);
    }
    // Every text the kept one does not hold stays beside it; a copy the new set no longer has goes.
    String key = RequestMerge.keyOf(request);
    List<String> copyIds = new ArrayList<>();
    for (TextCopy copy : RequestMerge.disagreeing(all)) {
      copyIds.add(Documents.textCopyId(key, copy));
      writers.submit(key.hashCode(), 256L + copy.text().length(), () -> Documents.textCopy(key, copy));
    }
    for (String stale : copiesBefore) {
      if (!copyIds.contains(stale)) {
        store.delete(stale); // never written again below: no later add can race this delete
      }
    }

    long joined = before.isEmpty() ? arrivals - 1 : arrivals;
    if (joined > 0) {
      counts.recordsMerged += joined;
      counts.identicalCopies += RequestMerge.copies(all) - (before.isEmpty() ? 0 : RequestMerge.copies(before));
      counts.requestsMerged++;
      if (request.provenance().conflicted()) {
        counts.requestsWithConflicts++;
        if (counts.samples.size() < SAMPLE) {
          counts.samples.add(request.requestId() + ": " + request.provenance().conflicts().getFirst());
        }
      }
    }
  }

  private void submit(RequestRecord record, java.util.function.Supplier<Document> build) {
    writers.submit(RequestMerge.keyOf(record).hashCode(), Documents.textChars(record), build);
  }

  private static int firstLive(PostingsEnum postings, Bits live) throws IOException {
    return nextLive(postings, live);
  }

  private static int nextLive(PostingsEnum postings, Bits live) throws IOException {
    int doc = postings.nextDoc();
    while (doc != DocIdSetIterator.NO_MORE_DOCS && live != null && !live.get(doc)) {
      doc = postings.nextDoc();
    }
    return doc;
  }

  private static final class Counts {
    long recordsMerged;
    long identicalCopies;
    long requestsMerged;
    long requestsWithConflicts;
    int sinceCommit;
    final List<String> samples = new ArrayList<>();
  }
}

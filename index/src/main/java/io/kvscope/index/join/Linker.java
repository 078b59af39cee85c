package io.kvscope.index.join;

import io.kvscope.model.join.EngineFacts;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.nodes.Epochs;
import io.kvscope.index.nodes.NodeClocks;
import io.kvscope.index.store.DocumentWriters;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.EngineEvent;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.MultiDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.MultiBits;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Joins engine facts onto request documents by id, never by time (node clocks are skewed). One
 * walk over the {@code engine_rid} terms sees, per rid, the gateway's request and every engine line
 * logged under that rid (the decode side); {@link RequestEvents} adds the prefill side, which has
 * its own rid and shares only the bootstrap room. Memory holds one request's documents at a time.
 * A rid without a request is reported unmatched unless a request claims it through its room.
 *
 * <p>Re-running is cheap and exact: a request whose joined facts did not change keeps its document
 * ({@link Schema#LINK_SIGNATURE}).
 */
public final class Linker {

  private static final int SAMPLE = 10;

  private final IndexStore store;
  private final DocumentWriters writers;
  private final DecodedEvents decoded;

  public Linker(IndexStore store) {
    this(store, null);
  }

  /** Rewrites linked requests through {@code writers} (on its threads); {@code null} writes directly. */
  public Linker(IndexStore store, DocumentWriters writers) {
    this(store, writers, new DecodedEvents());
  }

  /** The same, taking the engine events of the segments {@code decoded} holds from there, not decoding them again. */
  public Linker(IndexStore store, DocumentWriters writers, DecodedEvents decoded) {
    this.store = store;
    this.writers = writers;
    this.decoded = decoded;
  }

  public LinkSummary run() throws IOException {
    long joined = 0;
    long engineOnly = 0;
    long rewritten = 0;
    long ambiguousRooms = 0;
    List<String> engineOnlySample = new ArrayList<>();
    List<String> gatewayOnlySample = new ArrayList<>();
    RoleJoin.Counter roles = new RoleJoin.Counter();
    long requests;
    NodeClocks.Learner clocks = new NodeClocks.Learner();
    try (DirectoryReader reader = store.openReader()) {
      requests = new IndexSearcher(reader).count(new TermQuery(new Term(Schema.DOC_TYPE, Schema.TYPE_REQUEST)));
      Epochs epochs = Epochs.load(reader);
      EngineEventLookup lookup = new EngineEventLookup(reader, EngineEventLookup.decodeAll(reader, decoded));
      RequestEvents join = new RequestEvents(lookup);
      Terms rids = MultiTerms.getTerms(reader, Schema.ENGINE_RID);
      if (rids != null) {
        StoredFields stored = reader.storedFields();
        TermsEnum terms = rids.iterator();
        for (BytesRef rid = terms.next(); rid != null; rid = terms.next()) {
          String ridText = rid.utf8ToString();
          // The requests from doc values and the events alone from stored fields: a request's
          // stored fields hold its prompt, decompressed whole however few fields are read.
          List<EngineEventLookup.RequestDoc> requestDocs = lookup.requestsOf(ridText);
          if (requestDocs.isEmpty()) {
            // A rid no gateway record names (a prefill rid, mostly): its lines are read only when no
            // request claims them through a room, which the request's own turn reads them for.
            if (!join.claimedThroughRoom(ridText)) {
              List<EngineEvent> orphans = lookup.eventsOf(ridText);
              if (!orphans.isEmpty()) {
                engineOnly++;
                sample(engineOnlySample, ridText);
                roles.unmatched(ridText, orphans);
              }
            }
            continue;
          }
          RequestEvents.Joined joinedEvents = join.of(ridText);
          ambiguousRooms += joinedEvents.ambiguousRooms();
          List<EngineEvent> all = joinedEvents.all();
          if (all.isEmpty()) {
            requestDocs.forEach(d -> sample(gatewayOnlySample, d.requestId()));
            continue;
          }
          roles.joined(joinedEvents);
          EngineFacts facts = joinedEvents.facts(epochs);
          observeClocks(clocks, requestDocs.get(0), all, epochs);
          String signature = Documents.linkSignature(facts);
          for (EngineEventLookup.RequestDoc request : requestDocs) {
            joined++;
            if (!signature.equals(request.linkSignature())) {
              rewrite(Documents.readGatewayRequest(stored.document(request.doc())), facts);
              rewritten++;
            }
          }
        }
      }
      if (gatewayOnlySample.size() < SAMPLE && requests > joined) {
        collectRequestsWithoutRid(reader, gatewayOnlySample);
      }
    }
    if (writers != null) {
      writers.flush();
    }
    for (Document clock : clocks.documents()) {
      store.put(clock);
    }
    return new LinkSummary(requests, joined, requests - joined, gatewayOnlySample, roles.result(), engineOnly,
        engineOnlySample, ambiguousRooms, rewritten);
  }

  /** Replaces a request's document with one carrying its engine facts. */
  private void rewrite(RequestRecord request, EngineFacts facts) throws IOException {
    if (writers == null) {
      store.put(Documents.linkedRequest(request, facts));
      return;
    }
    writers.submit(Documents.routeOf(request), Documents.textChars(request), () -> Documents.linkedRequest(request, facts));
  }

  /** Each node's first line about the request against the gateway's start of it, by the node's report name. */
  private static void observeClocks(NodeClocks.Learner clocks, EngineEventLookup.RequestDoc request,
      List<EngineEvent> events, Epochs epochs) {
    Long start = request.start();
    if (start == null) {
      return;
    }
    java.util.Map<String, Long> firstByNode = new java.util.TreeMap<>();
    for (EngineEvent event : events) {
      firstByNode.merge(epochs.canonical(event.node()), event.time(), Math::min);
    }
    String requestId = request.requestId();
    firstByNode.forEach((node, time) -> clocks.observe(node, requestId, time, start));
  }

  private static void collectRequestsWithoutRid(DirectoryReader reader, List<String> sample) throws IOException {
    Bits live = MultiBits.getLiveDocs(reader);
    PostingsEnum docs = MultiTerms.getTermPostingsEnum(reader, Schema.DOC_TYPE, new BytesRef(Schema.TYPE_REQUEST));
    if (docs == null) {
      return;
    }
    // Whether a request has a rid, from doc values: reading stored fields would decompress every prompt.
    SortedSetDocValues rids = MultiDocValues.getSortedSetValues(reader, Schema.ENGINE_RID);
    SortedSetDocValues requestIds = MultiDocValues.getSortedSetValues(reader, Schema.REQUEST_ID);
    for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS && sample.size() < SAMPLE; doc = docs.nextDoc()) {
      if ((live != null && !live.get(doc)) || (rids != null && rids.advanceExact(doc))) {
        continue;
      }
      if (requestIds != null && requestIds.advanceExact(doc)) {
        sample(sample, requestIds.lookupOrd(requestIds.nextOrd()).utf8ToString());
      }
    }
  }

  private static void sample(List<String> sample, String value) {
    if (sample.size() < SAMPLE && value != null) {
      sample.add(value);
    }
  }
}

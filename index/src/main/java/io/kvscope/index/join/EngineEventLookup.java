package io.kvscope.index.join;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.ingest.record.EngineEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;

/**
 * Random access to one reader's engine events by rid and by bootstrap room, for the prefill join
 * ({@link RequestEvents}). Given the events decoded at once ({@link #decodeAll}), it answers from
 * tables of them by rid and by room, and of the live requests by rid, each made on first use;
 * without them every look-up seeks one term per segment and reads only what it returns: rids from
 * doc values, stored fields for the events returned, and a document's type from a set of the
 * segment's live documents of that type, made once per lookup.
 * Not thread-safe (it reuses its terms enumerations and makes its tables lazily); one per thread.
 */
final class EngineEventLookup {

  private static final BytesRef ENGINE_EVENT = new BytesRef(Schema.TYPE_ENGINE_EVENT);
  private static final BytesRef REQUEST = new BytesRef(Schema.TYPE_REQUEST);

  private final DirectoryReader reader;
  private final TermsEnum[] rids;
  private final TermsEnum[] rooms;
  /** Per segment, kept across look-ups: opening stored fields or postings anew for each cost more than reading them. */
  private final StoredFields[] stored;
  private final PostingsEnum[] postings;
  /**
   * Per segment, the live engine events and the live requests, each made once from its type's
   * postings: opening the type's doc values for every look-up and segment (a terms dictionary and
   * a term seek each time, since doc values iterate forward only) was most of a look-up's cost.
   */
  private final FixedBitSet[] engineEvents;
  private final FixedBitSet[] requests;
  /** Per segment, the doc values a {@link RequestDoc} is read from, kept while look-ups go forward. */
  private final RequestColumns[] requestColumns;
  /** The reader's engine events by document number, decoded once ({@link #decodeAll}); null: read when returned. */
  private final EngineEvent[] decoded;
  /**
   * With {@link #decoded}: its events by rid and by room, and the live requests by rid, each in
   * document order (what the term seeks give), made on first use. A seek of every segment's terms
   * for every rid and room a join asks was most of the {@link Linker}'s own cost.
   */
  private Map<String, List<EngineEvent>> eventsByRid;
  private Map<Long, List<EngineEvent>> eventsByRoom;
  private Map<String, List<RequestDoc>> requestsByRid;
  /** Set when the reader holds more requests than {@link #MAX_DECODED}: they are looked up by term then. */
  private boolean tooManyRequests;

  EngineEventLookup(DirectoryReader reader) {
    this(reader, null);
  }

  /** @param decoded {@link #decodeAll} of {@code reader}, shared by the lookups of several threads, or null */
  EngineEventLookup(DirectoryReader reader, EngineEvent[] decoded) {
    this.reader = reader;
    this.decoded = decoded;
    int leaves = reader.leaves().size();
    this.rids = new TermsEnum[leaves];
    this.rooms = new TermsEnum[leaves];
    this.stored = new StoredFields[leaves];
    this.postings = new PostingsEnum[leaves];
    this.engineEvents = new FixedBitSet[leaves];
    this.requests = new FixedBitSet[leaves];
    this.requestColumns = new RequestColumns[leaves];
  }

  /** Engine events {@link #decodeAll} holds at most (a few hundred bytes each in memory). */
  static final int MAX_DECODED = 500_000;

  /**
   * Every live engine event of {@code reader}, decoded once in document order and indexed by
   * document number (null for other documents), or null when there are more than
   * {@link #MAX_DECODED}. A join reads nearly every event, each once or twice, and a rid's events
   * lie in different blocks of the stored fields (logged over time, on several nodes): read one by
   * one, each decompressed its block's dictionary and sub-block again, read in order each block is
   * decompressed once (Lucene's merge instance of the stored fields, which keeps the block it read).
   */
  static EngineEvent[] decodeAll(DirectoryReader reader) throws IOException {
    return decodeAll(reader, new DecodedEvents());
  }

  /**
   * {@link #decodeAll(DirectoryReader)}, taking each segment {@code earlier} holds from there (with
   * this reader's deletes) and leaving there each segment it decodes.
   */
  static EngineEvent[] decodeAll(DirectoryReader reader, DecodedEvents earlier) throws IOException {
    if (reader.docFreq(new Term(Schema.DOC_TYPE, ENGINE_EVENT)) > MAX_DECODED) {
      return null;
    }
    EngineEvent[] events = new EngineEvent[reader.maxDoc()];
    for (LeafReaderContext context : reader.leaves()) {
      LeafReader leaf = context.reader();
      EngineEvent[] segment = earlier.of(leaf);
      if (segment == null) {
        segment = decode(leaf);
        earlier.put(leaf, segment);
      }
      Bits live = leaf.getLiveDocs();
      for (int doc = 0; doc < segment.length; doc++) {
        if (segment[doc] != null && (live == null || live.get(doc))) {
          events[context.docBase + doc] = segment[doc];
        }
      }
    }
    return events;
  }

  /** A segment without engine events. */
  private static final EngineEvent[] NO_EVENTS = new EngineEvent[0];

  /** The live engine events of one segment by document number, read in order. */
  private static EngineEvent[] decode(LeafReader leaf) throws IOException {
    Terms types = leaf.terms(Schema.DOC_TYPE);
    TermsEnum type = types == null ? null : types.iterator();
    if (type == null || !type.seekExact(ENGINE_EVENT)) {
      return NO_EVENTS;
    }
    EngineEvent[] events = new EngineEvent[leaf.maxDoc()];
    StoredFields stored = leaf instanceof CodecReader codec ? codec.getFieldsReader().getMergeInstance() : leaf.storedFields();
    Bits live = leaf.getLiveDocs();
    PostingsEnum docs = type.postings(null, PostingsEnum.NONE);
    for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
      if (live == null || live.get(doc)) {
        events[doc] = Documents.readEngineEvent(stored, doc);
      }
    }
    return events;
  }

  /** The live engine events logged under {@code rid}; request documents under it are not read. */
  List<EngineEvent> eventsOf(String rid) {
    if (decoded != null) {
      keyDecodedEvents();
      return new ArrayList<>(eventsByRid.getOrDefault(rid, List.of()));
    }
    List<EngineEvent> events = new ArrayList<>();
    forEachEvent(Schema.ENGINE_RID, rids, new BytesRef(rid), (leaf, doc) -> events.add(leaf.read(doc)));
    return events;
  }

  /** {@link #eventsByRid} and {@link #eventsByRoom}, once: a rid or a room is an event's indexed term exactly when set. */
  private void keyDecodedEvents() {
    if (eventsByRid != null) {
      return;
    }
    eventsByRid = new HashMap<>();
    eventsByRoom = new HashMap<>();
    for (EngineEvent event : decoded) {
      if (event == null) {
        continue;
      }
      if (event.rid() != null) {
        eventsByRid.computeIfAbsent(event.rid(), rid -> new ArrayList<>(4)).add(event);
      }
      if (event.bootstrapRoom() != null) {
        eventsByRoom.computeIfAbsent(event.bootstrapRoom(), room -> new ArrayList<>(2)).add(event);
      }
    }
  }

  /**
   * The distinct rids of the engine events logged with {@code room}, in first-seen order, at most
   * {@code limit + 1} of them (enough to tell a room shared by more than {@code limit} rids).
   * {@code ridless} receives the room's events that name no rid.
   */
  Set<String> ridsAt(long room, int limit, List<EngineEvent> ridless) {
    Set<String> found = new LinkedHashSet<>();
    if (decoded != null) {
      keyDecodedEvents();
      for (EngineEvent event : eventsByRoom.getOrDefault(room, List.of())) {
        if (found.size() > limit) {
          break;
        }
        if (event.rid() != null) {
          found.add(event.rid());
        } else {
          ridless.add(event);
        }
      }
      return found;
    }
    forEachEvent(Schema.JOIN_ROOM, rooms, new BytesRef(Long.toString(room)), (leaf, doc) -> {
      if (found.size() > limit) {
        return;
      }
      String rid = leaf.ridOf(doc);
      if (rid != null) {
        found.add(rid);
      } else {
        ridless.add(leaf.read(doc));
      }
    });
    return found;
  }

  /** The bootstrap rooms the live engine events under {@code rid} name (no stored fields read). */
  Set<Long> roomsOf(String rid) {
    Set<Long> rooms = new LinkedHashSet<>();
    if (decoded != null) {
      keyDecodedEvents();
      for (EngineEvent event : eventsByRid.getOrDefault(rid, List.of())) {
        if (event.bootstrapRoom() != null) {
          rooms.add(event.bootstrapRoom());
        }
      }
      return rooms;
    }
    forEachEvent(Schema.ENGINE_RID, rids, new BytesRef(rid), (leaf, doc) -> {
      Long room = leaf.roomOf(doc);
      if (room != null) {
        rooms.add(room);
      }
    });
    return rooms;
  }

  /**
   * A live request document under a rid, as the {@link Linker} needs it: what it compares and
   * reports comes from doc values, since the document's stored fields hold the whole prompt.
   *
   * @param doc the document's number in the whole reader (for reading it when it is rewritten)
   */
  record RequestDoc(int doc, String requestId, Long start, String linkSignature) {}

  /** The live request documents logged under {@code rid}, in document order; none when no record names it. */
  List<RequestDoc> requestsOf(String rid) {
    if (keyRequests()) {
      return new ArrayList<>(requestsByRid.getOrDefault(rid, List.of()));
    }
    List<RequestDoc> found = new ArrayList<>(1);
    forEachOfType(Schema.ENGINE_RID, rids, new BytesRef(rid), REQUEST, (leaf, doc) -> found.add(leaf.request(doc)));
    return found;
  }

  /**
   * The doc values of one segment a {@link RequestDoc} is read from. They iterate forward only, so
   * they serve look-ups while the documents asked for come in increasing order, and are opened anew
   * for a document one of them has passed (the {@link Linker} walks rids in term order, and their
   * requests lie in any order).
   */
  private static final class RequestColumns {
    private final SortedSetDocValues requestIds;
    private final SortedNumericDocValues starts;
    private final SortedSetDocValues signatures;

    RequestColumns(LeafReader leaf) throws IOException {
      this.requestIds = leaf.getSortedSetDocValues(Schema.REQUEST_ID);
      this.starts = leaf.getSortedNumericDocValues(Schema.START_TIME);
      this.signatures = leaf.getSortedSetDocValues(Schema.LINK_SIGNATURE);
    }

    /** Whether these can still read {@code doc}: none of them is at or past it. */
    boolean reach(int doc) {
      return before(requestIds, doc) && before(starts, doc) && before(signatures, doc);
    }

    private static boolean before(DocIdSetIterator values, int doc) {
      return values == null || values.docID() < doc;
    }

    RequestDoc read(int docBase, int doc) throws IOException {
      Long start = starts != null && starts.advanceExact(doc) ? starts.nextValue() : null;
      return new RequestDoc(docBase + doc, keyword(requestIds, doc), start, keyword(signatures, doc));
    }

    private static String keyword(SortedSetDocValues values, int doc) throws IOException {
      return values != null && values.advanceExact(doc) ? values.lookupOrd(values.nextOrd()).utf8ToString() : null;
    }
  }

  /**
   * Whether {@link #requestsByRid} answers: made once, with the events decoded and at most
   * {@link #MAX_DECODED} requests, from every live request's rids and what a {@link RequestDoc}
   * holds, read forward from doc values segment by segment.
   */
  private boolean keyRequests() {
    if (requestsByRid != null) {
      return true;
    }
    if (decoded == null || tooManyRequests) {
      return false;
    }
    try {
      if (reader.docFreq(new Term(Schema.DOC_TYPE, REQUEST)) > MAX_DECODED) {
        tooManyRequests = true;
        return false;
      }
      Map<String, List<RequestDoc>> byRid = new HashMap<>();
      List<LeafReaderContext> leaves = reader.leaves();
      for (int i = 0; i < leaves.size(); i++) {
        LeafReader leaf = leaves.get(i).reader();
        FixedBitSet ofType = liveOfType(leaf, i, REQUEST);
        SortedSetDocValues requestRids = leaf.getSortedSetDocValues(Schema.ENGINE_RID);
        if (ofType == null || requestRids == null) {
          continue;
        }
        RequestColumns columns = new RequestColumns(leaf);
        for (int doc = requestRids.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = requestRids.nextDoc()) {
          if (!ofType.get(doc)) {
            continue;
          }
          RequestDoc request = columns.read(leaves.get(i).docBase, doc);
          for (int n = 0; n < requestRids.docValueCount(); n++) {
            String rid = requestRids.lookupOrd(requestRids.nextOrd()).utf8ToString();
            byRid.computeIfAbsent(rid, key -> new ArrayList<>(1)).add(request);
          }
        }
      }
      requestsByRid = byRid;
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the engine join's requests from the index", e);
    }
  }

  /** Whether a gateway or trace record (a request document) carries {@code rid}. */
  boolean hasRequest(String rid) {
    if (keyRequests()) {
      return requestsByRid.containsKey(rid);
    }
    boolean[] found = {false};
    forEachOfType(Schema.ENGINE_RID, rids, new BytesRef(rid), REQUEST, (leaf, doc) -> {
      found[0] = true;
      return false;
    });
    return found[0];
  }

  @FunctionalInterface
  private interface EventDoc {
    void accept(Leaf leaf, int doc) throws IOException;
  }

  /** Receives a document of the type looked for; returns whether to go on. */
  @FunctionalInterface
  private interface TypedDoc {
    boolean accept(Leaf leaf, int doc) throws IOException;
  }

  /**
   * One segment during one look-up: doc values and stored fields opened once, on first use, and
   * read in the increasing doc order the postings give.
   */
  private final class Leaf {
    private final LeafReader reader;
    private final int ord;
    private final int docBase;
    private SortedSetDocValues rids;
    private SortedNumericDocValues rooms;

    Leaf(LeafReaderContext context, int ord) {
      this.reader = context.reader();
      this.ord = ord;
      this.docBase = context.docBase;
    }

    /** The event's rid, from doc values (the decoded events answer from their tables). */
    String ridOf(int doc) throws IOException {
      if (rids == null) {
        rids = reader.getSortedSetDocValues(Schema.ENGINE_RID);
      }
      return rids != null && rids.advanceExact(doc) ? rids.lookupOrd(rids.nextOrd()).utf8ToString() : null;
    }

    /** The event's bootstrap room, the same way. */
    Long roomOf(int doc) throws IOException {
      if (rooms == null) {
        rooms = reader.getSortedNumericDocValues(Schema.BOOTSTRAP_ROOM);
      }
      return rooms != null && rooms.advanceExact(doc) ? rooms.nextValue() : null;
    }

    EngineEvent read(int doc) throws IOException {
      if (stored[ord] == null) {
        stored[ord] = reader.storedFields();
      }
      return Documents.readEngineEvent(stored[ord], doc);
    }

    RequestDoc request(int doc) throws IOException {
      RequestColumns columns = requestColumns[ord];
      if (columns == null || !columns.reach(doc)) {
        columns = requestColumns[ord] = new RequestColumns(reader);
      }
      return columns.read(docBase, doc);
    }
  }

  /** Each live engine-event document holding {@code term} in {@code field}, segment by segment. */
  private void forEachEvent(String field, TermsEnum[] cache, BytesRef term, EventDoc consumer) {
    forEachOfType(field, cache, term, ENGINE_EVENT, (leaf, doc) -> {
      consumer.accept(leaf, doc);
      return true;
    });
  }

  /**
   * Each live document of {@link Schema#DOC_TYPE} {@code type} holding {@code term} in {@code field},
   * segment by segment, until {@code consumer} says stop.
   */
  private void forEachOfType(String field, TermsEnum[] cache, BytesRef term, BytesRef type, TypedDoc consumer) {
    try {
      List<LeafReaderContext> leaves = reader.leaves();
      for (int i = 0; i < leaves.size(); i++) {
        LeafReader leaf = leaves.get(i).reader();
        TermsEnum terms = seek(leaf, i, field, cache, term);
        if (terms == null) {
          continue;
        }
        FixedBitSet ofType = liveOfType(leaf, i, type);
        if (ofType == null) {
          continue;
        }
        Leaf context = new Leaf(leaves.get(i), i);
        PostingsEnum docs = postings[i] = terms.postings(postings[i], PostingsEnum.NONE);
        for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
          if (ofType.get(doc) && !consumer.accept(context, doc)) {
            return;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the engine join's documents from the index", e);
    }
  }

  /**
   * The live documents of {@code type} (an engine event or a request) in segment {@code ord}, from
   * the type's postings (a request's stored fields hold its whole prompt), or null when it has none.
   */
  private FixedBitSet liveOfType(LeafReader leaf, int ord, BytesRef type) throws IOException {
    FixedBitSet[] cache = type == ENGINE_EVENT ? engineEvents : requests;
    if (cache[ord] == null) {
      PostingsEnum docs = leaf.postings(new Term(Schema.DOC_TYPE, type), PostingsEnum.NONE);
      FixedBitSet found = new FixedBitSet(leaf.maxDoc());
      Bits live = leaf.getLiveDocs();
      boolean any = false;
      for (int doc = docs == null ? DocIdSetIterator.NO_MORE_DOCS : docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS;
          doc = docs.nextDoc()) {
        if (live == null || live.get(doc)) {
          found.set(doc);
          any = true;
        }
      }
      cache[ord] = any ? found : EMPTY;
    }
    return cache[ord] == EMPTY ? null : cache[ord];
  }

  /** A segment without live documents of a type. */
  private static final FixedBitSet EMPTY = new FixedBitSet(1);

  /** The segment's terms positioned on {@code term}, or null when the segment lacks it. */
  private static TermsEnum seek(LeafReader leaf, int ord, String field, TermsEnum[] cache, BytesRef term)
      throws IOException {
    if (cache[ord] == null) {
      Terms terms = leaf.terms(field);
      if (terms == null) {
        return null;
      }
      cache[ord] = terms.iterator();
    }
    return cache[ord].seekExact(term) ? cache[ord] : null;
  }

}

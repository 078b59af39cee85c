package io.kvscope.index.join;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.ingest.record.EngineEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Random access to one reader's engine events by rid and by bootstrap room, for the prefill join
 * ({@link RequestEvents}). Every look-up seeks one term per segment and reads only what it returns:
 * document types and rids come from doc values, stored fields are decoded for the events returned
 * (or for all of them at once, in order: {@link #decodeAll}).
 * Not thread-safe (it reuses its terms enumerations); one per thread.
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
  /** The reader's engine events by document number, decoded once ({@link #decodeAll}); null: read when returned. */
  private final EngineEvent[] decoded;

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
    if (reader.docFreq(new org.apache.lucene.index.Term(Schema.DOC_TYPE, ENGINE_EVENT)) > MAX_DECODED) {
      return null;
    }
    EngineEvent[] events = new EngineEvent[reader.maxDoc()];
    for (LeafReaderContext context : reader.leaves()) {
      LeafReader leaf = context.reader();
      Terms types = leaf.terms(Schema.DOC_TYPE);
      TermsEnum type = types == null ? null : types.iterator();
      if (type == null || !type.seekExact(ENGINE_EVENT)) {
        continue;
      }
      StoredFields stored = leaf instanceof CodecReader codec ? codec.getFieldsReader().getMergeInstance() : leaf.storedFields();
      Bits live = leaf.getLiveDocs();
      PostingsEnum docs = type.postings(null, PostingsEnum.NONE);
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if (live == null || live.get(doc)) {
          events[context.docBase + doc] = Documents.readEngineEvent(stored.document(doc));
        }
      }
    }
    return events;
  }

  /** The live engine events logged under {@code rid}; request documents under it are not read. */
  List<EngineEvent> eventsOf(String rid) {
    List<EngineEvent> events = new ArrayList<>();
    forEachEvent(Schema.ENGINE_RID, rids, new BytesRef(rid), (leaf, doc) -> events.add(leaf.read(doc)));
    return events;
  }

  /**
   * The distinct rids of the engine events logged with {@code room}, in first-seen order, at most
   * {@code limit + 1} of them (enough to tell a room shared by more than {@code limit} rids).
   * {@code ridless} receives the room's events that name no rid.
   */
  Set<String> ridsAt(long room, int limit, List<EngineEvent> ridless) {
    Set<String> found = new LinkedHashSet<>();
    forEachEvent(Schema.JOIN_ROOM, rooms, new BytesRef(Long.toString(room)), (leaf, doc) -> {
      if (found.size() > limit) {
        return;
      }
      SortedSetDocValues rid = leaf.rids();
      if (rid != null && rid.advanceExact(doc)) {
        found.add(rid.lookupOrd(rid.nextOrd()).utf8ToString());
      } else {
        ridless.add(leaf.read(doc));
      }
    });
    return found;
  }

  /** The bootstrap rooms the live engine events under {@code rid} name, from doc values (no stored fields). */
  Set<Long> roomsOf(String rid) {
    Set<Long> rooms = new LinkedHashSet<>();
    forEachEvent(Schema.ENGINE_RID, rids, new BytesRef(rid), (leaf, doc) -> {
      SortedNumericDocValues room = leaf.rooms();
      if (room != null && room.advanceExact(doc)) {
        rooms.add(room.nextValue());
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
    List<RequestDoc> found = new ArrayList<>(1);
    forEachOfType(Schema.ENGINE_RID, rids, new BytesRef(rid), REQUEST, (leaf, doc) -> found.add(leaf.request(doc)));
    return found;
  }

  /** The doc values of one segment a {@link RequestDoc} is read from, opened for one look-up. */
  private static final class RequestColumns {
    private final SortedSetDocValues requestIds;
    private final SortedNumericDocValues starts;
    private final SortedSetDocValues signatures;

    RequestColumns(LeafReader leaf) throws IOException {
      this.requestIds = leaf.getSortedSetDocValues(Schema.REQUEST_ID);
      this.starts = leaf.getSortedNumericDocValues(Schema.START_TIME);
      this.signatures = leaf.getSortedSetDocValues(Schema.LINK_SIGNATURE);
    }

    RequestDoc read(int docBase, int doc) throws IOException {
      Long start = starts != null && starts.advanceExact(doc) ? starts.nextValue() : null;
      return new RequestDoc(docBase + doc, keyword(requestIds, doc), start, keyword(signatures, doc));
    }

    private static String keyword(SortedSetDocValues values, int doc) throws IOException {
      return values != null && values.advanceExact(doc) ? values.lookupOrd(values.nextOrd()).utf8ToString() : null;
    }
  }

  /** Whether a gateway or trace record (a request document) carries {@code rid}. */
  boolean hasRequest(String rid) {
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
    private RequestColumns requests;

    Leaf(LeafReaderContext context, int ord) {
      this.reader = context.reader();
      this.ord = ord;
      this.docBase = context.docBase;
    }

    SortedSetDocValues rids() throws IOException {
      if (rids == null) {
        rids = reader.getSortedSetDocValues(Schema.ENGINE_RID);
      }
      return rids;
    }

    SortedNumericDocValues rooms() throws IOException {
      if (rooms == null) {
        rooms = reader.getSortedNumericDocValues(Schema.BOOTSTRAP_ROOM);
      }
      return rooms;
    }

    EngineEvent read(int doc) throws IOException {
      if (decoded != null) {
        return decoded[docBase + doc];
      }
      if (stored[ord] == null) {
        stored[ord] = reader.storedFields();
      }
      return Documents.readEngineEvent(stored[ord].document(doc));
    }

    RequestDoc request(int doc) throws IOException {
      // Opened for each look-up: doc values iterate forward only, and an earlier look-up may have passed doc.
      if (requests == null) {
        requests = new RequestColumns(reader);
      }
      return requests.read(docBase, doc);
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
        // The type from doc values: a request's stored fields hold its whole prompt.
        SortedSetDocValues types = leaf.getSortedSetDocValues(Schema.DOC_TYPE);
        long typeOrd = types == null ? -1 : types.lookupTerm(type);
        if (typeOrd < 0) {
          continue;
        }
        Bits live = leaf.getLiveDocs();
        Leaf context = new Leaf(leaves.get(i), i);
        PostingsEnum docs = postings[i] = terms.postings(postings[i], PostingsEnum.NONE);
        for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
          if ((live == null || live.get(doc)) && types.advanceExact(doc) && types.nextOrd() == typeOrd
              && !consumer.accept(context, doc)) {
            return;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the engine join's documents from the index", e);
    }
  }

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

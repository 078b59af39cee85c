package io.kvscope.analysis;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.doc.TextCopies;
import io.kvscope.ingest.merge.RequestMerge;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.model.evidence.Holder;
import io.kvscope.model.finding.RequestHeader;
import io.kvscope.model.order.RequestOrder;
import io.kvscope.model.reach.ReachRule;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedSetDocValues;

/**
 * Per-document columns for the self-joins (identifiers, fingerprints): tenant, start and end time,
 * decode node and place in request order of every request, by global doc id. 28 bytes a document:
 * a million requests take 28 MB, which is what lets a join check "other tenant, earlier, same node"
 * per posting without touching stored fields.
 */
public final class RequestColumns {

  public static final int NOT_A_REQUEST = -1;

  private final IndexReader reader;
  private final int[] tenant;
  private final int[] decodeNode;
  private final long[] start;
  private final long[] end;
  private final java.util.BitSet inRange;
  /** Each request's place in {@link RequestOrder}, the order every cap and tie-break uses. */
  private final int[] order;
  /** The request document at each place in {@link RequestOrder}: how a {@link Holder} finds its document. */
  private final int[] docAt;
  private final List<String> tenantNames;
  private final List<String> nodeNames;
  /** Reply copies by their document, each with its request's document (see {@link ReplyCopy}). */
  private final Map<Integer, ReplyCopy> copies;
  private final Map<Integer, List<ReplyCopy>> copiesByRequest;

  /**
   * A reply a merged request's records disagree on, beside the kept one ({@link TextCopies}): read
   * as a response its request received (same tenant, times, nodes and mechanism), never as a source.
   *
   * @param doc the copy's document
   * @param request its request's document
   */
  public record ReplyCopy(int doc, int request, TextCopies.Copy copy) {}

  private RequestColumns(IndexReader reader, int[] tenant, int[] decodeNode, long[] start, long[] end,
      java.util.BitSet inRange, int[] order, int[] docAt, List<String> tenantNames, List<String> nodeNames,
      Map<Integer, ReplyCopy> copies) {
    this.reader = reader;
    this.copies = copies;
    this.copiesByRequest = new HashMap<>();
    copies.values().forEach(c -> copiesByRequest.computeIfAbsent(c.request(), r -> new ArrayList<>()).add(c));
    this.inRange = inRange;
    this.order = order;
    this.docAt = docAt;
    this.tenant = tenant;
    this.decodeNode = decodeNode;
    this.start = start;
    this.end = end;
    this.tenantNames = tenantNames;
    this.nodeNames = nodeNames;
  }

  public static RequestColumns load(AnalysisContext context) throws IOException {
    IndexReader reader = context.reader();
    int[] tenant = new int[reader.maxDoc()];
    int[] node = new int[reader.maxDoc()];
    long[] start = new long[reader.maxDoc()];
    long[] end = new long[reader.maxDoc()];
    Arrays.fill(tenant, NOT_A_REQUEST);
    Map<String, Integer> tenants = new HashMap<>();
    Map<String, Integer> nodes = new HashMap<>();
    List<String> tenantNames = new ArrayList<>();
    List<String> nodeNames = new ArrayList<>();
    java.util.BitSet inRange = new java.util.BitSet(reader.maxDoc());
    List<Map.Entry<RequestOrder, Integer>> byOrder = new ArrayList<>();
    Map<String, List<TextCopies.Copy>> copiesByKey = new HashMap<>();
    for (TextCopies.Copy copy : TextCopies.all(reader)) {
      if (copy.isReply()) {
        copiesByKey.computeIfAbsent(copy.requestKey(), k -> new ArrayList<>()).add(copy);
      }
    }
    Map<Integer, ReplyCopy> copies = new java.util.TreeMap<>();
    // Every request can be a source; only those in the analysed range are recipients.
    RequestRows.forEach(reader, row -> {
      if (context.options().inRange(row.record().startTime())) {
        inRange.set(row.doc());
      }
      tenant[row.doc()] = tenants.computeIfAbsent(row.tenantOrUnknown(), t -> {
        tenantNames.add(t);
        return tenantNames.size() - 1;
      });
      RequestRecord r = row.record();
      node[row.doc()] = r.decodeNode() == null ? ReachRule.UNKNOWN_NODE : nodes.computeIfAbsent(r.decodeNode(), n -> {
        nodeNames.add(n);
        return nodeNames.size() - 1;
      });
      start[row.doc()] = r.startTime() == null ? Long.MIN_VALUE : r.startTime();
      end[row.doc()] = r.endTime() == null ? start[row.doc()] : r.endTime();
      byOrder.add(Map.entry(RequestOrder.of(r.startTime(), r.requestId()), row.doc()));
      if (!copiesByKey.isEmpty()) {
        copiesByKey.getOrDefault(RequestMerge.keyOf(r), List.of())
            .forEach(c -> copies.put(c.doc(), new ReplyCopy(c.doc(), row.doc(), c)));
      }
    });
    byOrder.sort(Map.Entry.comparingByKey());
    int[] order = new int[reader.maxDoc()];
    int[] docAt = new int[byOrder.size()];
    Arrays.fill(order, Integer.MAX_VALUE);
    for (int i = 0; i < byOrder.size(); i++) {
      order[byOrder.get(i).getValue()] = i;
      docAt[i] = byOrder.get(i).getValue();
    }
    // A copy is where its request is, in time, node and order; its tenant stays unset, so it is no request.
    for (ReplyCopy c : copies.values()) {
      node[c.doc()] = node[c.request()];
      start[c.doc()] = start[c.request()];
      end[c.doc()] = end[c.request()];
      order[c.doc()] = order[c.request()];
      inRange.set(c.doc(), inRange.get(c.request()));
    }
    return new RequestColumns(reader, tenant, node, start, end, inRange, order, docAt, tenantNames, nodeNames, copies);
  }

  /** True for live request documents (possible sources, whatever their time); never for a reply copy. */
  public boolean isRequest(int doc) {
    return tenant[doc] != NOT_A_REQUEST;
  }

  /** The request {@code doc} is a reply copy of, else {@code doc} itself. */
  public int requestDoc(int doc) {
    if (copies.isEmpty() || tenant[doc] != NOT_A_REQUEST) {
      return doc;
    }
    ReplyCopy copy = copies.get(doc);
    return copy == null ? doc : copy.request();
  }

  /** The reply copy {@code doc} is, or null. */
  public ReplyCopy copy(int doc) {
    return copies.isEmpty() ? null : copies.get(doc);
  }

  /** The reply copies of request {@code doc} (none for most). */
  public List<ReplyCopy> copiesOf(int doc) {
    return copiesByRequest.getOrDefault(doc, List.of());
  }

  /** True for requests inside the analysed time range, and their reply copies: the responses examined. */
  public boolean isRecipient(int doc) {
    return inRange.get(doc);
  }

  /**
   * The request's place among all requests in {@link RequestOrder} (start, then request id): what
   * caps and ties go by, so that no result depends on the order documents were written in.
   */
  public int order(int doc) {
    return order[doc];
  }

  /** Requests in {@link RequestOrder}, earliest first. */
  public java.util.Comparator<Integer> inRequestOrder() {
    return java.util.Comparator.comparingInt(this::order);
  }

  /** The first {@code n} of the requests {@code docs} in request order: a bounded read, whatever the index order. */
  public List<Integer> earliest(List<Integer> docs, int n) {
    return docs.stream().sorted(inRequestOrder()).limit(n).toList();
  }

  /** The request document at place {@code place} in request order ({@link #order(int)} undone). */
  public int docAt(int place) {
    return docAt[place];
  }

  /** The document of the request {@code holder} is: the model keys holders by request, the index by document. */
  public int docOf(Holder holder) {
    return docAt(holder.request());
  }

  /** The request's tenant; a reply copy's is its request's. */
  public int tenant(int doc) {
    return tenant[requestDoc(doc)];
  }

  public String tenantName(int doc) {
    return tenantNames.get(tenant(doc));
  }

  public int decodeNode(int doc) {
    return decodeNode[doc];
  }

  public long start(int doc) {
    return start[doc];
  }

  /** When the request ended (its pages were released); its start when the end is unknown. */
  public long end(int doc) {
    return end[doc];
  }

  /** The request's id (gateway id where there is one). */
  public String requestId(int doc) throws IOException {
    return keyword(requestDoc(doc), Schema.REQUEST_ID);
  }

  /** The engine's request id, or null where no engine log named it. */
  public String engineRid(int doc) throws IOException {
    return keyword(requestDoc(doc), Schema.ENGINE_RID);
  }

  /**
   * A keyword field of a request, read from its doc values: the stored fields hold the request's
   * texts too (megabytes for an over-length prompt), and a source of a popular passage is named in
   * many findings.
   */
  private String keyword(int doc, String field) throws IOException {
    List<LeafReaderContext> leaves = reader.leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    SortedSetDocValues values = DocValues.getSortedSet(leaf.reader(), field);
    return values.advanceExact(doc - leaf.docBase) ? values.lookupOrd(values.nextOrd()).utf8ToString() : null;
  }

  /** Decode nodes seen, numbered from 0 as {@link #decodeNode(int)} gives them. */
  public int nodeCount() {
    return nodeNames.size();
  }

  public String nodeName(int node) {
    return nodeNames.get(node);
  }

  /** The handful of stored fields a finding names, without loading the texts (a copy's: its request's). */
  public RequestHeader header(int doc) throws IOException {
    Document stored = reader.storedFields().document(requestDoc(doc), Set.of(Schema.REQUEST_ID, Schema.ENGINE_RID,
        Schema.TENANT, Schema.START_TIME, Schema.PREFILL_NODE, Schema.DECODE_NODE));
    Long start = Documents.longValue(stored, Schema.START_TIME);
    return new RequestHeader(stored.get(Schema.REQUEST_ID), stored.get(Schema.ENGINE_RID), stored.get(Schema.TENANT),
        start == null ? null : Instant.ofEpochMilli(start), stored.get(Schema.PREFILL_NODE),
        stored.get(Schema.DECODE_NODE));
  }

  /**
   * A stored text field of a request (prompt or response), loaded alone. A reply copy's response is
   * its own text, its prompt its request's.
   */
  public String text(int doc, String field) throws IOException {
    if (copy(doc) != null) {
      return field.equals(Schema.RESPONSE_TEXT) ? reader.storedFields().document(doc, Set.of(Schema.COPY_TEXT))
          .get(Schema.COPY_TEXT) : text(requestDoc(doc), field);
    }
    return reader.storedFields().document(doc, Set.of(field)).get(field);
  }
}

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
  /** The request (or copy) document at each place in {@link RequestOrder}: how a {@link Holder} finds its document. */
  private final int[] docAt;
  private final List<String> tenantNames;
  private final List<String> nodeNames;
  /** Reply copies by their document, each with its request's document (see {@link CopyOf}). */
  private final Map<Integer, CopyOf> copies;
  /** Every copy of a request, reply and prompt, in the order of their places (see {@link #load}). */
  private final Map<Integer, List<CopyOf>> copiesOfRequest;
  /** Prompt copies by their document, each with its request's document (see {@link CopyOf}). */
  private final Map<Integer, CopyOf> promptCopies;

  /**
   * A text a merged request's records disagree on, beside the kept one ({@link TextCopies}). A reply
   * copy is read as a response its request received (same tenant, times, nodes and mechanism),
   * never as a source; a prompt copy as a text its request may have prefilled, so a source like
   * the request, never a recipient.
   *
   * @param doc the copy's document
   * @param request its request's document
   */
  public record CopyOf(int doc, int request, TextCopies.Copy copy) {}

  private RequestColumns(IndexReader reader, int[] tenant, int[] decodeNode, long[] start, long[] end,
      java.util.BitSet inRange, int[] order, int[] docAt, List<String> tenantNames, List<String> nodeNames,
      Map<Integer, CopyOf> copies, Map<Integer, CopyOf> promptCopies, Map<Integer, List<CopyOf>> copiesOfRequest) {
    this.reader = reader;
    this.copies = copies;
    this.promptCopies = promptCopies;
    this.copiesOfRequest = copiesOfRequest;
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
      copiesByKey.computeIfAbsent(copy.requestKey(), k -> new ArrayList<>()).add(copy);
    }
    Map<Integer, CopyOf> copies = new java.util.TreeMap<>();
    Map<Integer, CopyOf> promptCopies = new java.util.TreeMap<>();
    // Every request can be a source; only those in the analysed range are recipients.
    context.forEachRow(row -> {
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
        copiesByKey.getOrDefault(RequestMerge.keyOf(r), List.of()).forEach(c ->
            (c.isReply() ? copies : promptCopies).put(c.doc(), new CopyOf(c.doc(), row.doc(), c)));
      }
    });
    byOrder.sort(Map.Entry.comparingByKey());
    // Each copy takes the place right after its request (copies by the record they were read
    // from): a holder found in a copy keeps that copy's document, and a map in this order never
    // takes a request and its copy for one key.
    Map<Integer, List<CopyOf>> copiesOfRequest = new HashMap<>();
    for (Map<Integer, CopyOf> each : List.of(copies, promptCopies)) {
      each.values().forEach(c -> copiesOfRequest.computeIfAbsent(c.request(), r -> new ArrayList<>()).add(c));
    }
    copiesOfRequest.values().forEach(list -> list.sort(java.util.Comparator.comparing(
        (CopyOf c) -> c.copy().field() + " " + c.copy().where()).thenComparingInt(CopyOf::doc)));
    int[] order = new int[reader.maxDoc()];
    int[] docAt = new int[byOrder.size() + copies.size() + promptCopies.size()];
    Arrays.fill(order, Integer.MAX_VALUE);
    int place = 0;
    for (Map.Entry<RequestOrder, Integer> request : byOrder) {
      order[request.getValue()] = place;
      docAt[place++] = request.getValue();
      for (CopyOf c : copiesOfRequest.getOrDefault(request.getValue(), List.of())) {
        order[c.doc()] = place;
        docAt[place++] = c.doc();
      }
    }
    // A copy is where its request is, in time and node; its tenant stays unset, so it is no
    // request. Only a reply copy is a response examined.
    for (CopyOf c : copies.values()) {
      inRange.set(c.doc(), inRange.get(c.request()));
    }
    for (Map<Integer, CopyOf> each : List.of(copies, promptCopies)) {
      for (CopyOf c : each.values()) {
        node[c.doc()] = node[c.request()];
        start[c.doc()] = start[c.request()];
        end[c.doc()] = end[c.request()];
      }
    }
    return new RequestColumns(reader, tenant, node, start, end, inRange, order, docAt, tenantNames, nodeNames, copies,
        promptCopies, copiesOfRequest);
  }

  /** True for live request documents (possible sources, whatever their time); never for a reply copy. */
  public boolean isRequest(int doc) {
    return tenant[doc] != NOT_A_REQUEST;
  }

  /**
   * True for what may hold a source's text: a live request, or a copy of its prompt (whichever of
   * its logged prompts was prefilled, its pages held that text). Never a reply copy.
   */
  public boolean isSource(int doc) {
    return tenant[doc] != NOT_A_REQUEST || promptCopy(doc) != null;
  }

  /** The request {@code doc} is a reply or prompt copy of, else {@code doc} itself. */
  public int requestDoc(int doc) {
    if (tenant[doc] != NOT_A_REQUEST) {
      return doc;
    }
    CopyOf copy = copy(doc);
    if (copy == null) {
      copy = promptCopy(doc);
    }
    return copy == null ? doc : copy.request();
  }

  /** The reply copy {@code doc} is, or null. */
  public CopyOf copy(int doc) {
    return copies.isEmpty() ? null : copies.get(doc);
  }

  /** The prompt copy {@code doc} is, or null. */
  public CopyOf promptCopy(int doc) {
    return promptCopies.isEmpty() ? null : promptCopies.get(doc);
  }

  /**
   * The reply copies of request {@code doc} (none for most), in the order of their records (file
   * and line), whatever order the files were read in.
   */
  public List<CopyOf> copiesOf(int doc) {
    List<CopyOf> all = copiesOfRequest.get(doc);
    return all == null ? List.of() : all.stream().filter(c -> c.copy().isReply()).toList();
  }

  /** True when some merged request's records disagree on a text, so the index holds copies of it. */
  public boolean hasCopies() {
    return !copiesOfRequest.isEmpty();
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

  /** Requests in {@link RequestOrder}, earliest first, each followed by its copies. */
  public java.util.Comparator<Integer> inRequestOrder() {
    return java.util.Comparator.comparingInt(this::order);
  }

  /** The first {@code n} of the requests {@code docs} in request order: a bounded read, whatever the index order. */
  public List<Integer> earliest(List<Integer> docs, int n) {
    return docs.stream().sorted(inRequestOrder()).limit(n).toList();
  }

  /** The request or copy document at place {@code place} in request order ({@link #order(int)} undone). */
  public int docAt(int place) {
    return docAt[place];
  }

  /** The document of the request {@code holder} is: the model keys holders by request, the index by document. */
  public int docOf(Holder holder) {
    return docAt(holder.request());
  }

  /** The request's tenant; a copy's is its request's. */
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
   * its own text, its prompt its request's; a prompt copy's prompt is its own text, and it has no
   * reply (its request holds that).
   */
  public String text(int doc, String field) throws IOException {
    if (copy(doc) != null) {
      return field.equals(Schema.RESPONSE_TEXT) ? copyText(doc) : text(requestDoc(doc), field);
    }
    if (promptCopy(doc) != null) {
      return field.equals(Schema.PROMPT_TEXT) ? copyText(doc) : null;
    }
    return reader.storedFields().document(doc, Set.of(field)).get(field);
  }

  private String copyText(int doc) throws IOException {
    return reader.storedFields().document(doc, Set.of(Schema.COPY_TEXT)).get(Schema.COPY_TEXT);
  }
}

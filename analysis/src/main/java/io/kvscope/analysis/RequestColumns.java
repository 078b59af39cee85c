package io.kvscope.analysis;

import io.kvscope.index.Documents;
import io.kvscope.index.Schema;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.model.evidence.Holder;
import io.kvscope.model.order.RequestOrder;
import io.kvscope.model.reach.ReachRule;
import java.io.IOException;
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
  private final List<String> tenantNames;
  private final List<String> nodeNames;

  private RequestColumns(IndexReader reader, int[] tenant, int[] decodeNode, long[] start, long[] end,
      java.util.BitSet inRange, int[] order, List<String> tenantNames, List<String> nodeNames) {
    this.reader = reader;
    this.inRange = inRange;
    this.order = order;
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
    });
    byOrder.sort(Map.Entry.comparingByKey());
    int[] order = new int[reader.maxDoc()];
    Arrays.fill(order, Integer.MAX_VALUE);
    for (int i = 0; i < byOrder.size(); i++) {
      order[byOrder.get(i).getValue()] = i;
    }
    return new RequestColumns(reader, tenant, node, start, end, inRange, order, tenantNames, nodeNames);
  }

  /** True for live request documents (possible sources, whatever their time). */
  public boolean isRequest(int doc) {
    return tenant[doc] != NOT_A_REQUEST;
  }

  /** True for requests inside the analysed time range: the responses examined. */
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

  /** {@code holders} in request order, so the facts the rules read do not depend on the index order. */
  public List<Holder> holdersInRequestOrder(java.util.Collection<Holder> holders) {
    return holders.stream().sorted(java.util.Comparator.comparing(Holder::doc, inRequestOrder())).toList();
  }

  public int tenant(int doc) {
    return tenant[doc];
  }

  public String tenantName(int doc) {
    return tenantNames.get(tenant[doc]);
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
    return keyword(doc, Schema.REQUEST_ID);
  }

  /** The engine's request id, or null where no engine log named it. */
  public String engineRid(int doc) throws IOException {
    return keyword(doc, Schema.ENGINE_RID);
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

  /** The handful of stored fields a finding names, without loading the texts. */
  public Document header(int doc) throws IOException {
    return reader.storedFields().document(doc, Set.of(Schema.REQUEST_ID, Schema.ENGINE_RID, Schema.TENANT,
        Schema.START_TIME, Schema.PREFILL_NODE, Schema.DECODE_NODE, Schema.DEPLOYMENT));
  }

  /** A stored text field of a request (prompt or response), loaded alone. */
  public String text(int doc, String field) throws IOException {
    return reader.storedFields().document(doc, Set.of(field)).get(field);
  }

  public static Long startOf(Document header) {
    return Documents.longValue(header, Schema.START_TIME);
  }
}

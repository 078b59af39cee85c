package io.kvscope.index.join;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.Schema;
import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KeywordField;
import org.apache.lucene.document.LongField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortedNumericSelector;
import org.apache.lucene.search.SortedSetSelector;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

/**
 * Learns which node a decode server's {@code bootstrap_host} is. In a PD deployment the router
 * tells the decode server where its prefill peer is ({@code bootstrap_host}) and which room the KV
 * pages go through ({@code bootstrap_room}); the prefill server logs the same room. A few requests
 * per host show which prefill node that host is, which makes the host (and a scrape target on it,
 * {@code host:port}) a name of that node. A host is learned only when the requests agree.
 */
public final class BootstrapHosts {

  /** Requests looked at per host: a host is one node, so a few agreeing requests settle it. */
  static final int SAMPLE = 32;
  /** At least this share of the looked-up rooms must point at the same prefill node. */
  static final double AGREEMENT = 0.9;
  /** A fleet has few prefill hosts; past this many the field holds something else, and learning stops. */
  static final int MAX_HOSTS = 4096;

  /**
   * The sample, and the line cited for an alias, in the order of the logs: the same whatever order
   * merges left the documents in, so learning again rewrites nothing.
   */
  private static final Sort IN_LOG_ORDER = new Sort(
      KeywordField.newSortField(Schema.SOURCE_FILE, false, SortedSetSelector.Type.MIN),
      LongField.newSortField(Schema.SOURCE_LINE, false, SortedNumericSelector.Type.MIN));

  private BootstrapHosts() {}

  /** One alias per host whose requests' rooms all (but a stray few) lead to one prefill node. */
  public static List<NodeAlias> learn(IndexReader reader) throws IOException {
    Terms hosts = MultiTerms.getTerms(reader, Schema.BOOTSTRAP_HOST);
    List<NodeAlias> learned = new ArrayList<>();
    if (hosts == null) {
      return learned;
    }
    IndexSearcher searcher = new IndexSearcher(reader);
    StoredFields stored = reader.storedFields();
    TermsEnum terms = hosts.iterator();
    int seen = 0;
    for (BytesRef term = terms.next(); term != null && seen++ < MAX_HOSTS; term = terms.next()) {
      String host = term.utf8ToString();
      ScoreDoc[] named = searcher.search(new TermQuery(new Term(Schema.BOOTSTRAP_HOST, host)), SAMPLE, IN_LOG_ORDER)
          .scoreDocs;
      Map<String, Integer> votes = new HashMap<>();
      int rooms = 0;
      Document first = null;
      for (ScoreDoc hit : named) {
        Document decode = stored.document(hit.doc);
        Long room = Documents.longValue(decode, Schema.BOOTSTRAP_ROOM);
        if (room == null) {
          continue;
        }
        first = first == null ? decode : first;
        String prefill = prefillNodeOf(searcher, stored, room);
        if (prefill != null) {
          rooms++;
          votes.merge(prefill, 1, Integer::sum);
        }
      }
      if (rooms == 0) {
        continue;
      }
      Map.Entry<String, Integer> top = votes.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow();
      if (top.getValue() >= AGREEMENT * rooms) {
        learned.add(new NodeAlias(top.getKey(), host, AliasOrigin.BOOTSTRAP_HOST, first.get(Schema.SOURCE_FILE),
            orZero(Documents.longValue(first, Schema.SOURCE_LINE))));
      }
    }
    return learned;
  }

  /** The node of a prefill-side engine event in {@code room}, or null. */
  private static String prefillNodeOf(IndexSearcher searcher, StoredFields stored, long room) throws IOException {
    BooleanQuery query = new BooleanQuery.Builder()
        .add(LongField.newExactQuery(Schema.BOOTSTRAP_ROOM, room), BooleanClause.Occur.FILTER)
        .add(new TermQuery(new Term(Schema.DOC_TYPE, Schema.TYPE_ENGINE_EVENT)), BooleanClause.Occur.FILTER)
        .add(new TermQuery(new Term(Schema.ROLE, NodeRole.PREFILL.name())), BooleanClause.Occur.FILTER)
        .build();
    ScoreDoc[] hits = searcher.search(query, 1).scoreDocs;
    return hits.length == 0 ? null : stored.document(hits[0].doc).get(Schema.NODE);
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }
}

package io.kvscope.gui.data;

import io.kvscope.analysis.NodeEpoch;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.nodes.Epochs;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.QueryParsing;
import io.kvscope.index.doc.Schema;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.queryparser.classic.ParseException;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;

/**
 * The workbench's read-only view of an index. Lucene searchers are thread-safe, so background
 * tasks may call this concurrently; it is closed once, when the window closes.
 */
public final class IndexData implements Closeable {

  private static final Set<String> ID_FIELDS = Set.of(Schema.REQUEST_ID, Schema.ENGINE_RID);

  private final Path path;
  private final IndexSearch search;
  private final List<NodeEpoch> nodeEpochs;
  private final long requests;

  private IndexData(Path path, IndexSearch search, List<NodeEpoch> nodeEpochs, long requests) {
    this.path = path;
    this.search = search;
    this.nodeEpochs = List.copyOf(nodeEpochs);
    this.requests = requests;
  }

  /** Opens the index at {@code dir} and loads its config epochs (few: one per node restart). */
  public static IndexData open(Path dir) throws IOException {
    IndexSearch search = IndexSearch.open(dir);
    try {
      Epochs epochs = Epochs.load(search.reader());
      return new IndexData(dir, search, NodeEpoch.all(epochs, epochs.clocks()),
          search.count(Schema.TYPE_REQUEST));
    } catch (IOException | RuntimeException e) {
      search.close();
      throw e;
    }
  }

  /** How this case's text is masked (the index's keyed hash). */
  public io.kvscope.index.store.Redaction redaction() {
    return search.redaction();
  }

  public Path path() {
    return path;
  }

  /** Every node's epochs as the config audit judged them (on the gateway's clock), node by node. */
  public List<NodeEpoch> nodeEpochs() {
    return nodeEpochs;
  }

  /** Request documents in the index. */
  public long requestCount() {
    return requests;
  }

  /**
   * The request a finding or source names: by request id first, then by engine rid (a request
   * without a gateway record is known by its rid alone).
   */
  public Optional<StoredRequest> request(String requestId, String engineRid) throws IOException {
    List<Query> attempts = new ArrayList<>();
    if (requestId != null) {
      attempts.add(new TermQuery(new Term(Schema.REQUEST_ID, requestId)));
      attempts.add(new TermQuery(new Term(Schema.ENGINE_RID, requestId)));
    }
    if (engineRid != null) {
      attempts.add(new TermQuery(new Term(Schema.ENGINE_RID, engineRid)));
    }
    for (Query attempt : attempts) {
      TopDocs top = search.searcher().search(requestsOnly(attempt), 1);
      if (top.scoreDocs.length > 0) {
        Document doc = search.reader().storedFields().document(top.scoreDocs[0].doc);
        return Optional.of(new StoredRequest(Documents.readRequest(doc), Documents.readFacts(doc)));
      }
    }
    return Optional.empty();
  }

  /**
   * The text of {@code field} of a request as its logged copy {@code copy} gives it (the record it
   * was read from, as a span names it; null: the kept text), or null when the index holds none.
   */
  public String text(String requestId, String field, String copy) throws IOException {
    return new io.kvscope.analysis.report.IndexTextSource(search).text(requestId, field, copy);
  }

  /**
   * Runs a query in Lucene syntax ({@link QueryParsing}) and reports which of {@code ids} (request
   * ids or engine rids) it matched. Only those candidates are fetched, and only their id fields,
   * so a query matching millions of requests costs a count and a bounded lookup.
   */
  public SearchHits matching(String query, Collection<String> ids) throws IOException, ParseException {
    QueryParsing.Parsed read = QueryParsing.parseWithTerms(query);
    Query scoped = query.contains(Schema.DOC_TYPE + ":") ? read.query() : requestsOnly(read.query());
    List<String> notes = search.notes(read.bareWords());
    long total = search.searcher().count(scoped);
    if (ids.isEmpty() || total == 0) {
      return new SearchHits(total, Set.of(), notes);
    }
    List<BytesRef> terms = ids.stream().distinct().map(BytesRef::new).toList();
    Query candidates = new BooleanQuery.Builder()
        .add(new TermInSetQuery(Schema.REQUEST_ID, terms), Occur.SHOULD)
        .add(new TermInSetQuery(Schema.ENGINE_RID, terms), Occur.SHOULD)
        .build();
    Query narrowed = new BooleanQuery.Builder().add(scoped, Occur.MUST).add(candidates, Occur.FILTER).build();
    // A candidate may match through several documents (its request and its engine lines).
    int matches = search.searcher().count(narrowed);
    if (matches == 0) {
      return new SearchHits(total, Set.of(), notes);
    }
    TopDocs top = search.searcher().search(narrowed, matches);
    StoredFields stored = search.reader().storedFields();
    Set<String> wanted = new HashSet<>(ids);
    Set<String> hits = new HashSet<>();
    for (ScoreDoc hit : top.scoreDocs) {
      Document doc = stored.document(hit.doc, ID_FIELDS);
      for (String field : ID_FIELDS) {
        String value = doc.get(field);
        if (value != null && wanted.contains(value)) {
          hits.add(value);
        }
      }
    }
    return new SearchHits(total, hits, notes);
  }

  private static Query requestsOnly(Query query) {
    return new BooleanQuery.Builder()
        .add(query, Occur.MUST)
        .add(new TermQuery(new Term(Schema.DOC_TYPE, Schema.TYPE_REQUEST)), Occur.FILTER)
        .build();
  }

  @Override
  public void close() throws IOException {
    search.close();
  }
}

package io.kvscope.analysis.report;

import io.kvscope.analysis.BoundedCache;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.store.Redaction;
import io.kvscope.index.doc.Schema;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/**
 * A {@link TextSource} over an open index: looks a request up by {@code request_id}, else by
 * {@code engine_rid}, and returns the stored text (its own, or a logged copy's by the request's
 * key) or trace id. The caller keeps the {@link IndexSearch} open while the writers run and closes
 * it. The Markdown and HTML reports ask for the same replies and sources' texts in turn, so the
 * texts last read are kept, up to {@link #KEPT_CHARS} chars; only the field asked for is read (a
 * prompt can be megabytes). Not for concurrent use.
 */
public final class IndexTextSource implements TextSource {

  private static final Set<String> FIELDS = Set.of(PROMPT, RESPONSE);
  private static final Set<String> ALIASES = Set.of(Schema.ALIAS);
  private static final Set<String> KEY = Set.of(Schema.REQUEST_KEY);
  private static final Set<String> COPY_TEXT = Set.of(Schema.COPY_TEXT);

  /** Chars of texts kept between look-ups, at most (about 2 bytes each). */
  static final long KEPT_CHARS = 8_000_000;

  private final IndexSearch index;
  /** Texts by field and request id; a null text is kept as such. */
  private final BoundedCache<List<String>, Optional<String>> kept =
      new BoundedCache<>(KEPT_CHARS, (key, text) -> text.map(String::length).orElse(0));

  public IndexTextSource(IndexSearch index) {
    this.index = index;
  }

  @Override
  public Redaction redaction() {
    return index.redaction();
  }

  @Override
  public String text(String requestId, String field) throws IOException {
    if (requestId == null || !FIELDS.contains(field)) {
      return null;
    }
    List<String> key = List.of(field, requestId);
    Optional<String> known = kept.get(key);
    if (known != null) {
      return known.orElse(null);
    }
    Document doc = find(requestId, Set.of(field));
    String text = doc == null ? null : doc.get(field);
    kept.put(key, Optional.ofNullable(text));
    return text;
  }

  @Override
  public String text(String requestId, String field, String copy) throws IOException {
    if (copy == null) {
      return text(requestId, field);
    }
    if (requestId == null || !FIELDS.contains(field)) {
      return null;
    }
    Document request = find(requestId, KEY);
    String key = request == null ? null : request.get(Schema.REQUEST_KEY);
    if (key == null) {
      return null;
    }
    Query query = new BooleanQuery.Builder()
        .add(new TermQuery(new Term(Schema.DOC_TYPE, Schema.TYPE_TEXT_COPY)), Occur.FILTER)
        .add(new TermQuery(new Term(Schema.REQUEST_KEY, key)), Occur.FILTER)
        .add(new TermQuery(new Term(Schema.COPY_OF, field)), Occur.FILTER)
        .add(new TermQuery(new Term(Schema.COPY_SOURCE, copy)), Occur.FILTER)
        .build();
    TopDocs top = index.searcher().search(query, 1);
    return top.scoreDocs.length == 0 ? null
        : index.reader().storedFields().document(top.scoreDocs[0].doc, COPY_TEXT).get(Schema.COPY_TEXT);
  }

  @Override
  public String traceId(String requestId) throws IOException {
    if (requestId == null) {
      return null;
    }
    Document doc = find(requestId, ALIASES);
    return doc == null ? null : TraceLinks.traceIdOf(List.of(doc.getValues(Schema.ALIAS)));
  }

  /** The request by gateway id, else by engine rid, with only {@code fields} read. */
  private Document find(String requestId, Set<String> fields) throws IOException {
    Document doc = find(Schema.REQUEST_ID, requestId, fields);
    return doc != null ? doc : find(Schema.ENGINE_RID, requestId, fields);
  }

  private Document find(String idField, String id, Set<String> fields) throws IOException {
    Query query = new BooleanQuery.Builder()
        .add(new TermQuery(new Term(idField, id)), Occur.FILTER)
        .add(new TermQuery(new Term(Schema.DOC_TYPE, Schema.TYPE_REQUEST)), Occur.FILTER)
        .build();
    TopDocs top = index.searcher().search(query, 1);
    if (top.scoreDocs.length == 0) {
      return null;
    }
    return index.reader().storedFields().document(top.scoreDocs[0].doc, fields);
  }
}

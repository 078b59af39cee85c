package io.kvscope.analysis;

import io.kvscope.index.IndexSearch;
import io.kvscope.index.doc.Schema;
import java.io.IOException;
import java.time.Instant;
import org.apache.lucene.document.LongField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.SortedNumericSortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/** The earliest and latest request start in an index, read from the sorted doc values. */
public final class RequestStarts {

  private RequestStarts() {}

  /** The first request's start, or null when no request has one. */
  public static Instant first(IndexSearch index) throws IOException {
    return extreme(index, false);
  }

  /** The last request's start, or null when no request has one. */
  public static Instant last(IndexSearch index) throws IOException {
    return extreme(index, true);
  }

  private static Instant extreme(IndexSearch index, boolean latest) throws IOException {
    TopDocs top = index.searcher().search(new BooleanQuery.Builder()
            .add(new TermQuery(new Term(Schema.DOC_TYPE, Schema.TYPE_REQUEST)), Occur.FILTER)
            .add(LongField.newRangeQuery(Schema.START_TIME, Long.MIN_VALUE, Long.MAX_VALUE), Occur.FILTER)
            .build(),
        1, new Sort(new SortedNumericSortField(Schema.START_TIME, SortField.Type.LONG, latest)));
    if (top.scoreDocs.length == 0) {
      return null;
    }
    String millis = index.searcher().storedFields().document(top.scoreDocs[0].doc).get(Schema.START_TIME);
    return Instant.ofEpochMilli(Long.parseLong(millis));
  }
}

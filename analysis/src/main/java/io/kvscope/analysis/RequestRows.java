package io.kvscope.analysis;

import io.kvscope.index.doc.DocValueFields;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.FieldValues;
import io.kvscope.index.doc.Schema;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Consumer;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;

/**
 * Streams every request of an index as a {@link RequestRow}, segment by segment, reading only doc
 * values: memory stays flat however many requests there are.
 */
public final class RequestRows {

  private RequestRows() {}

  public static void forEach(IndexReader reader, Consumer<RequestRow> consumer) throws IOException {
    IndexSearcher searcher = new IndexSearcher(reader);
    Weight requests = searcher.createWeight(
        searcher.rewrite(new TermQuery(new Term(Schema.DOC_TYPE, Schema.TYPE_REQUEST))), ScoreMode.COMPLETE_NO_SCORES, 1f);
    for (LeafReaderContext leaf : reader.leaves()) {
      Scorer scorer = requests.scorer(leaf);
      if (scorer == null) {
        continue;
      }
      DocValueFields columns = new DocValueFields(leaf.reader());
      Bits live = leaf.reader().getLiveDocs();
      DocIdSetIterator docs = scorer.iterator();
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if (live == null || live.get(doc)) {
          consumer.accept(row(columns.at(doc), leaf.docBase + doc));
        }
      }
    }
  }

  /** The request at {@code values}' document: the record and its engine facts, read as from stored fields. */
  private static RequestRow row(FieldValues values, int globalDoc) throws IOException {
    try {
      RequestRecord record = Documents.readFields(values).build();
      return new RequestRow(globalDoc, record, Documents.readFacts(record, values));
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}

package io.kvscope.analysis;

import io.kvscope.index.doc.Documents;
import io.kvscope.index.doc.FieldValues;
import io.kvscope.index.doc.Schema;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.NumericUtils;

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
      Leaf columns = new Leaf(leaf.reader());
      Bits live = leaf.reader().getLiveDocs();
      DocIdSetIterator docs = scorer.iterator();
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if (live == null || live.get(doc)) {
          consumer.accept(columns.row(doc, leaf.docBase + doc));
        }
      }
    }
  }

  /**
   * The doc-values columns of one segment, at one document: the record and its engine facts are
   * read through them as from stored fields, each column once and forward only, as Lucene requires.
   */
  private static final class Leaf implements FieldValues {
    /** Values of one keyword column kept per segment at most (a bound on what rows hold on to). */
    private static final int MAX_KEPT_VALUES = 1 << 14;

    private final LeafReader reader;
    // One column per field and segment, opened on first use: rows are read in increasing doc order.
    private final Map<String, Column> columns = new HashMap<>();
    private int doc;

    Leaf(LeafReader reader) {
      this.reader = reader;
    }

    RequestRow row(int doc, int globalDoc) throws IOException {
      this.doc = doc;
      try {
        RequestRecord record = Documents.readFields(this).build();
        return new RequestRow(globalDoc, record, Documents.readFacts(record, this));
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }

    @Override
    public Object get(String field) {
      try {
        Column column = columns.get(field);
        if (column == null) {
          columns.put(field, column = open(field));
        }
        return column.at(doc);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** A field's doc values as its Schema kind says they are held. */
    private Column open(String field) throws IOException {
      return switch (Schema.kindOf(field)) {
        case KEYWORD -> keyword(DocValues.getSortedSet(reader, field));
        case LONG -> {
          SortedNumericDocValues values = DocValues.getSortedNumeric(reader, field);
          yield doc -> values.advanceExact(doc) ? values.nextValue() : null;
        }
        case DOUBLE -> {
          SortedNumericDocValues values = DocValues.getSortedNumeric(reader, field);
          yield doc -> values.advanceExact(doc) ? NumericUtils.sortableLongToDouble(values.nextValue()) : null;
        }
        case TEXT -> doc -> null; // doc values hold no text: rows are read without it
      };
    }

    /**
     * A keyword column. Looking a value up by its ordinal decompresses a block of the segment's
     * terms, so the values of a column with few of them (tenants, nodes, models) are kept once
     * looked up; a column of ids, one value per request, is looked up each time.
     */
    private static Column keyword(SortedSetDocValues values) {
      long count = values.getValueCount();
      String[] known = count <= MAX_KEPT_VALUES ? new String[(int) count] : null;
      return doc -> {
        if (!values.advanceExact(doc)) {
          return null;
        }
        long ord = values.nextOrd();
        if (known == null) {
          return values.lookupOrd(ord).utf8ToString();
        }
        String value = known[(int) ord];
        if (value == null) {
          known[(int) ord] = value = values.lookupOrd(ord).utf8ToString();
        }
        return value;
      };
    }

    private interface Column {
      Object at(int doc) throws IOException;
    }
  }
}

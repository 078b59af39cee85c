package io.kvscope.analysis;

import io.kvscope.index.Schema;
import java.io.IOException;
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

  /** The doc-values columns of one segment; each column is read forward only, as Lucene requires. */
  private static final class Leaf {
    private final LeafReader reader;

    Leaf(LeafReader reader) {
      this.reader = reader;
    }

    RequestRow row(int doc, int globalDoc) throws IOException {
      return new RequestRow(
          globalDoc,
          keyword(Schema.REQUEST_ID, doc),
          keyword(Schema.ENGINE_RID, doc),
          keyword(Schema.TENANT, doc),
          keyword(Schema.MODEL, doc),
          keyword(Schema.DEPLOYMENT, doc),
          keyword(Schema.PREFILL_NODE, doc),
          keyword(Schema.DECODE_NODE, doc),
          number(Schema.START_TIME, doc),
          number(Schema.FIRST_TOKEN_TIME, doc),
          number(Schema.END_TIME, doc),
          number(Schema.STATUS_CODE, doc),
          number(Schema.PROMPT_TOKENS, doc),
          number(Schema.PROMPT_CHARS, doc),
          number(Schema.CACHED_TOKENS, doc),
          number(Schema.COMPLETION_TOKENS, doc),
          number(Schema.ENGINE_INPUT_LEN, doc),
          orZero(number(Schema.ENGINE_EVENTS, doc)),
          Long.valueOf(1).equals(number(Schema.REJECTED, doc)),
          number(Schema.REQUESTED_LEN, doc),
          number(Schema.REJECTION_LIMIT, doc),
          number(Schema.PREFILL_POOL_TOKENS, doc),
          number(Schema.PREFILL_CONTEXT_LENGTH, doc),
          number(Schema.DECODE_POOL_TOKENS, doc),
          number(Schema.DECODE_CONTEXT_LENGTH, doc),
          keyword(Schema.ENGINE_VERSION, doc),
          decimal(Schema.TRANSFER_MB, doc),
          orZero(number(Schema.TRANSFER_FAILURES, doc)),
          orZero(number(Schema.CANARY_VIOLATIONS, doc)),
          orZero(number(Schema.CHECKSUM_MISMATCHES, doc)));
    }

    // One iterator per column and segment: doc-values iterators only move forward, which fits
    // rows being read in increasing doc order.
    private final java.util.Map<String, SortedSetDocValues> keywords = new java.util.HashMap<>();
    private final java.util.Map<String, SortedNumericDocValues> numbers = new java.util.HashMap<>();

    private String keyword(String field, int doc) throws IOException {
      SortedSetDocValues values = keywords.computeIfAbsent(field, f -> open(() -> DocValues.getSortedSet(reader, f)));
      if (!values.advanceExact(doc)) {
        return null;
      }
      return values.lookupOrd(values.nextOrd()).utf8ToString();
    }

    private Long number(String field, int doc) throws IOException {
      SortedNumericDocValues values = numbers.computeIfAbsent(field, f -> open(() -> DocValues.getSortedNumeric(reader, f)));
      return values.advanceExact(doc) ? values.nextValue() : null;
    }

    private Double decimal(String field, int doc) throws IOException {
      Long raw = number(field, doc);
      return raw == null ? null : NumericUtils.sortableLongToDouble(raw);
    }

    private interface IoSupplier<T> {
      T get() throws IOException;
    }

    private static <T> T open(IoSupplier<T> supplier) {
      try {
        return supplier.get();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    private static long orZero(Long value) {
      return value == null ? 0 : value;
    }
  }
}

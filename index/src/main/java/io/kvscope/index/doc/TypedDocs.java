package io.kvscope.index.doc;

import java.io.IOException;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MultiBits;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * Streams the live documents of one {@link Schema#DOC_TYPE} (or of any keyword term) by walking that
 * term's postings, so memory does not grow with the index (a top-N search sized to the whole index
 * would): whole, from their stored fields, or as the values of their keyword and number fields,
 * from doc values, which is far cheaper for small documents ({@link DocValueFields}).
 */
public final class TypedDocs {

  private TypedDocs() {}

  /** Receives each document; may throw. */
  @FunctionalInterface
  public interface DocumentConsumer {
    void accept(Document document) throws IOException;
  }

  /** Receives each document's values and its index-wide id; may throw. */
  @FunctionalInterface
  public interface ValuesConsumer {
    void accept(FieldValues values, int doc) throws IOException;
  }

  public static void forEach(IndexReader reader, String docType, DocumentConsumer consumer) throws IOException {
    forEachWith(reader, Schema.DOC_TYPE, docType, consumer);
  }

  /** The live documents whose keyword {@code field} holds {@code value}, the same way. */
  public static void forEachWith(IndexReader reader, String field, String value, DocumentConsumer consumer)
      throws IOException {
    PostingsEnum docs = MultiTerms.getTermPostingsEnum(reader, field, new BytesRef(value), PostingsEnum.NONE);
    if (docs == null) {
      return;
    }
    Bits live = MultiBits.getLiveDocs(reader);
    StoredFields stored = reader.storedFields();
    for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
      if (live == null || live.get(doc)) {
        consumer.accept(stored.document(doc));
      }
    }
  }

  /**
   * The live documents of {@code docType} in index order, each as its doc values (text fields read
   * as null); the values given are good until the next document.
   */
  public static void forEachValues(IndexReader reader, String docType, ValuesConsumer consumer) throws IOException {
    Term type = new Term(Schema.DOC_TYPE, docType);
    for (LeafReaderContext leaf : reader.leaves()) {
      PostingsEnum docs = leaf.reader().postings(type, PostingsEnum.NONE);
      if (docs == null) {
        continue;
      }
      DocValueFields values = new DocValueFields(leaf.reader());
      Bits live = leaf.reader().getLiveDocs();
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if (live == null || live.get(doc)) {
          consumer.accept(values.at(doc), leaf.docBase + doc);
        }
      }
    }
  }
}

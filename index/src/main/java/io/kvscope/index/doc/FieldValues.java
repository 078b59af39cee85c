package io.kvscope.index.doc;

import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexableField;

/**
 * One document's values by field name, wherever they are held: its stored fields, or the doc values
 * of its segment (the analysis reads requests that way, and gets no text). A doc-values source can
 * read each field only once per document.
 */
@FunctionalInterface
public interface FieldValues {

  /** The value of {@code field}: a String, Long or Double as its {@link Schema#kindOf kind} says, or null. */
  Object get(String field);

  /** The stored fields of {@code doc}. */
  static FieldValues of(Document doc) {
    return field -> {
      IndexableField stored = doc.getField(field);
      return stored == null ? null : stored.numericValue() != null ? stored.numericValue() : stored.stringValue();
    };
  }
}

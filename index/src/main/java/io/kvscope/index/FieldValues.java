package io.kvscope.index;

import org.apache.lucene.document.Document;

/**
 * One document's values by field name, wherever they are held: its stored fields, or the doc values
 * of its segment (the analysis reads requests that way). Each value is null where the document has
 * none. Reading every field once per document is all a doc-values source supports.
 */
public interface FieldValues {

  String keyword(String field);

  /** A full-text field; null where the source holds no text (doc values do not). */
  String text(String field);

  Long number(String field);

  Double decimal(String field);

  /** The stored fields of {@code doc}. */
  static FieldValues of(Document doc) {
    return new FieldValues() {
      @Override
      public String keyword(String field) {
        return doc.get(field);
      }

      @Override
      public String text(String field) {
        return doc.get(field);
      }

      @Override
      public Long number(String field) {
        return Documents.longValue(doc, field);
      }

      @Override
      public Double decimal(String field) {
        return Documents.doubleValue(doc, field);
      }
    };
  }
}

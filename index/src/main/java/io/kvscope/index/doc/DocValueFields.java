package io.kvscope.index.doc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.util.NumericUtils;

/**
 * The values of one segment's documents read from its doc values, as {@link FieldValues}: every
 * keyword and number field has them ({@link Schema.Kind}), text fields do not (read as null).
 * Reading a document's stored fields decompresses the block that holds it, and a small document
 * (an epoch, a node's hour) shares its block with requests' texts; its doc values are a few bytes.
 * Documents are read in increasing order, as Lucene's doc-values iterators require. A field's value
 * is the one its stored field holds when the document has one value of it (of several, a keyword
 * field gives its least).
 */
public final class DocValueFields implements FieldValues {

  /** Values of one keyword column kept per segment at most (a bound on what readers hold on to). */
  private static final int MAX_KEPT_VALUES = 1 << 14;

  private final LeafReader reader;
  // One column per field, opened on first use.
  private final Map<String, Column> columns = new HashMap<>();
  private int doc = -1;

  public DocValueFields(LeafReader reader) {
    this.reader = reader;
  }

  /** Moves to {@code doc} (segment-local, not before the last one); returns this. */
  public DocValueFields at(int doc) {
    if (doc < this.doc) {
      throw new IllegalArgumentException("doc values are read forward: document " + doc + " after " + this.doc);
    }
    this.doc = doc;
    return this;
  }

  /** {@inheritDoc} Any number of times per document. */
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
      case KEYWORD -> new Column(keyword(DocValues.getSortedSet(reader, field)));
      case LONG -> {
        SortedNumericDocValues values = DocValues.getSortedNumeric(reader, field);
        yield new Column(doc -> values.advanceExact(doc) ? values.nextValue() : null);
      }
      case DOUBLE -> {
        SortedNumericDocValues values = DocValues.getSortedNumeric(reader, field);
        yield new Column(doc -> values.advanceExact(doc) ? NumericUtils.sortableLongToDouble(values.nextValue()) : null);
      }
      case TEXT -> new Column(doc -> null); // doc values hold no text
    };
  }

  /**
   * A keyword column. Looking a value up by its ordinal decompresses a block of the segment's
   * terms, so the values of a column with few of them (tenants, nodes, models) are kept once
   * looked up; a column of ids, one value per document, is looked up each time.
   */
  private static Reader keyword(SortedSetDocValues values) {
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

  private interface Reader {
    Object at(int doc) throws IOException;
  }

  /** A column's reader and the last document it read, so a field read twice is read once. */
  private static final class Column {
    private final Reader reader;
    private int doc = -1;
    private Object value;

    Column(Reader reader) {
      this.reader = reader;
    }

    Object at(int doc) throws IOException {
      if (doc != this.doc) {
        value = reader.at(doc);
        this.doc = doc;
      }
      return value;
    }
  }
}

package io.kvscope.index.fingerprint;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.MultiDocValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.DocIdSetIterator;

/**
 * The tenant of every document of a reader as a dense ordinal ({@link #UNKNOWN} when the document
 * has none), loaded once from a {@link SortedDocValues} field so that the join can ask for it per
 * posting without seeking. Four bytes per document.
 */
public final class TenantOrdinals implements IntUnaryOperator {

  /** Ordinal of a document without a tenant. */
  public static final int UNKNOWN = -1;

  private final int[] ordinals;
  private final List<String> names;

  private TenantOrdinals(int[] ordinals, List<String> names) {
    this.ordinals = ordinals;
    this.names = List.copyOf(names);
  }

  /** Reads {@code field} (sorted doc values) across all segments of {@code reader}. */
  public static TenantOrdinals fromSortedDocValues(IndexReader reader, String field)
      throws IOException {
    int[] ordinals = new int[reader.maxDoc()];
    Arrays.fill(ordinals, UNKNOWN);
    List<String> names = new ArrayList<>();
    SortedDocValues values = MultiDocValues.getSortedValues(reader, field);
    if (values != null) {
      for (int ord = 0; ord < values.getValueCount(); ord++) {
        names.add(values.lookupOrd(ord).utf8ToString());
      }
      for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
        ordinals[doc] = values.ordValue();
      }
    }
    return new TenantOrdinals(ordinals, names);
  }

  /** Tenant ordinal of top-level doc {@code docId}, or {@link #UNKNOWN}. */
  @Override
  public int applyAsInt(int docId) {
    return ordinals[docId];
  }

  /** Number of distinct tenants. */
  public int count() {
    return names.size();
  }

  /** The tenant value of an ordinal. */
  public String name(int ordinal) {
    return names.get(ordinal);
  }
}

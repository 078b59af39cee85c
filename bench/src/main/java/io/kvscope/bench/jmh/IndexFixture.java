package io.kvscope.bench.jmh;

import io.kvscope.bench.EndToEnd;
import io.kvscope.index.doc.Schema;
import io.kvscope.index.fingerprint.FingerprintFields;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.MultiDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;

/**
 * A generated incident ingested into a real index, opened for reading, with each document's tenant
 * ordinal and start time loaded, as the overlap analysis has them. Deleted on close.
 */
final class IndexFixture implements Closeable {

  final Path incident;
  final FSDirectory directory;
  final DirectoryReader reader;
  final int[] tenant;
  final long[] start;
  /** Fingerprint points the join reads: every value of both fields, each with its document. */
  final long pointsRead;

  IndexFixture(String scale) throws IOException {
    incident = Corpora.incident(scale);
    directory = FSDirectory.open(Corpora.index(incident));
    reader = DirectoryReader.open(directory);
    tenant = tenants(reader);
    start = starts(reader);
    pointsRead = points(reader, FingerprintFields.RESPONSE) + points(reader, FingerprintFields.PROMPT);
  }

  private static int[] tenants(IndexReader reader) throws IOException {
    int[] tenant = new int[reader.maxDoc()];
    Arrays.fill(tenant, -1);
    SortedSetDocValues values = MultiDocValues.getSortedSetValues(reader, Schema.TENANT);
    if (values != null) {
      for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
        tenant[doc] = (int) values.nextOrd();
      }
    }
    return tenant;
  }

  private static long[] starts(IndexReader reader) throws IOException {
    long[] start = new long[reader.maxDoc()];
    SortedNumericDocValues values = MultiDocValues.getSortedNumericValues(reader, Schema.START_TIME);
    if (values != null) {
      for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
        start[doc] = values.nextValue();
      }
    }
    return start;
  }

  private static long points(IndexReader reader, String field) throws IOException {
    long points = 0;
    for (LeafReaderContext leaf : reader.leaves()) {
      PointValues values = leaf.reader().getPointValues(field);
      points += values == null ? 0 : values.size();
    }
    return points;
  }

  @Override
  public void close() throws IOException {
    reader.close();
    directory.close();
    EndToEnd.deleteTree(incident.getParent());
  }
}

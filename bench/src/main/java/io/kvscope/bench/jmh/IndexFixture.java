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
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

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
  /** Postings the join reads: both fields' postings of every response term two documents share. */
  final long postingsRead;
  final long responseTerms;

  IndexFixture(String scale) throws IOException {
    incident = Corpora.incident(scale);
    directory = FSDirectory.open(Corpora.index(incident));
    reader = DirectoryReader.open(directory);
    tenant = tenants(reader);
    start = starts(reader);
    long[] counts = postings(reader);
    responseTerms = counts[0];
    postingsRead = counts[1];
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

  /** {response terms, postings read}, counted the way the join's walk reads them. */
  private static long[] postings(IndexReader reader) throws IOException {
    Terms responses = MultiTerms.getTerms(reader, FingerprintFields.RESPONSE);
    Terms prompts = MultiTerms.getTerms(reader, FingerprintFields.PROMPT);
    if (responses == null) {
      return new long[] {0, 0};
    }
    TermsEnum r = responses.iterator();
    TermsEnum p = prompts == null ? null : prompts.iterator();
    long terms = 0;
    long read = 0;
    for (BytesRef term = r.next(); term != null; term = r.next()) {
      terms++;
      int both = r.docFreq() + (p != null && p.seekExact(term) ? p.docFreq() : 0);
      if (both >= 2) {
        read += both;
      }
    }
    return new long[] {terms, read};
  }

  @Override
  public void close() throws IOException {
    reader.close();
    directory.close();
    EndToEnd.deleteTree(incident.getParent());
  }
}

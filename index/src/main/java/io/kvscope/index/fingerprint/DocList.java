package io.kvscope.index.fingerprint;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;

/** The live doc ids of one term in one field, ascending; a reusable buffer. */
final class DocList {

  int[] docs = new int[16];
  int size;

  /** Replaces the content with the live docs of {@code postings} ({@code liveDocs} may be null). */
  void fill(PostingsEnum postings, Bits liveDocs) throws IOException {
    size = 0;
    for (int doc = postings.nextDoc();
        doc != DocIdSetIterator.NO_MORE_DOCS;
        doc = postings.nextDoc()) {
      if (liveDocs != null && !liveDocs.get(doc)) {
        continue; // postings still list deleted documents
      }
      if (size == docs.length) {
        docs = Arrays.copyOf(docs, size * 2);
      }
      docs[size++] = doc;
    }
  }
}

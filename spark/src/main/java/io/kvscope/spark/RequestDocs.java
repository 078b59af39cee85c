package io.kvscope.spark;

import io.kvscope.index.doc.Schema;
import java.io.IOException;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.FixedBitSet;

/**
 * The live request documents of an index (or of one shard) by merge key: a merged request's
 * records and text copies carry its key too, so only the request's own document answers. The keys
 * are looked up segment by segment, one key at a time; not thread-safe.
 */
final class RequestDocs {

  private final List<LeafReaderContext> leaves;
  private final FixedBitSet requests;
  private final TermsEnum[] keys;
  private PostingsEnum postings;

  RequestDocs(IndexReader reader) throws IOException {
    leaves = reader.leaves();
    requests = new FixedBitSet(Math.max(1, reader.maxDoc()));
    keys = new TermsEnum[leaves.size()];
    for (int i = 0; i < leaves.size(); i++) {
      LeafReaderContext leaf = leaves.get(i);
      Bits live = leaf.reader().getLiveDocs();
      PostingsEnum typed = leaf.reader().postings(new Term(Schema.DOC_TYPE, Schema.TYPE_REQUEST));
      if (typed != null) {
        for (int doc = typed.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = typed.nextDoc()) {
          if (live == null || live.get(doc)) {
            requests.set(leaf.docBase + doc);
          }
        }
      }
      Terms terms = leaf.reader().terms(Schema.REQUEST_KEY);
      keys[i] = terms == null ? null : terms.iterator();
    }
  }

  /** The request document under merge key {@code key}, or -1; two are refused, naming {@code what} asked. */
  int docOf(String key, String what) throws IOException {
    BytesRef term = new BytesRef(key);
    int found = -1;
    for (int i = 0; i < leaves.size(); i++) {
      if (keys[i] == null || !keys[i].seekExact(term)) {
        continue;
      }
      postings = keys[i].postings(postings, PostingsEnum.NONE);
      for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
        int global = leaves.get(i).docBase + doc;
        if (requests.get(global)) {
          if (found != -1) {
            throw new IllegalStateException(what + " has two request documents in the index (" + found + " and "
                + global + ")");
          }
          found = global;
        }
      }
    }
    return found;
  }
}

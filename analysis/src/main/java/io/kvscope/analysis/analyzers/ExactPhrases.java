package io.kvscope.analysis.analyzers;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * The documents where a phrase occurs word for word, as Lucene's exact phrase query (slop 0) finds
 * them: every term at its position from one start. A query builds a terms enumeration and a
 * positions enumeration per term per segment, and a passage of a hundred words asked of several
 * segments spent most of its time building them (bench/README.md, "Analysis CPU"); here each
 * segment's enumerations are made once and reused by every later phrase. Not for concurrent use,
 * nor from inside a visit.
 */
final class ExactPhrases {

  /** Told of each matching document (global id); returns false to stop. */
  interface DocVisitor {
    boolean visit(int doc) throws IOException;
  }

  private final List<LeafReaderContext> leaves;
  /** Per segment, per field: the terms enumeration and the positions enumerations, one per phrase slot. */
  private final Map<String, Segment[]> byField = new HashMap<>();

  ExactPhrases(IndexReader reader) {
    this.leaves = reader.leaves();
  }

  /**
   * Visits, segment by segment in document order, the live documents that {@code candidate}
   * accepts and whose {@code field} holds {@code terms[i]} at {@code start + positions[i]} for
   * every i and one start.
   *
   * @return false when the visitor stopped
   */
  boolean visit(String field, BytesRef[] terms, int[] positions, IntPredicate candidate, DocVisitor visitor)
      throws IOException {
    Segment[] segments = byField.computeIfAbsent(field, f -> new Segment[leaves.size()]);
    for (int i = 0; i < leaves.size(); i++) {
      LeafReaderContext leaf = leaves.get(i);
      if (segments[i] == null) {
        Terms fieldTerms = leaf.reader().terms(field);
        segments[i] = fieldTerms == null ? Segment.EMPTY : new Segment(fieldTerms.iterator());
      }
      if (segments[i] != Segment.EMPTY && !segments[i].visit(leaf, terms, positions, candidate, visitor)) {
        return false;
      }
    }
    return true;
  }

  /** One segment's field: its enumerations, kept between phrases. */
  private static final class Segment {
    static final Segment EMPTY = new Segment(null);
    /**
     * Positions enumerations kept between phrases, at most: a few kilobytes each, and a passage can
     * be thousands of words; a longer phrase's further enumerations are made for it alone.
     */
    static final int KEPT_SLOTS = 64;

    private final TermsEnum terms;
    private PostingsEnum[] postings = new PostingsEnum[0];
    private int[] offsets = new int[0];
    private int[] left = new int[0];
    private int[] at = new int[0];

    Segment(TermsEnum terms) {
      this.terms = terms;
    }

    boolean visit(LeafReaderContext leaf, BytesRef[] phrase, int[] positions, IntPredicate candidate,
        DocVisitor visitor) throws IOException {
      try {
        return match(leaf, phrase, positions, candidate, visitor);
      } finally {
        if (postings.length > KEPT_SLOTS) {
          postings = java.util.Arrays.copyOf(postings, KEPT_SLOTS);
        }
      }
    }

    private boolean match(LeafReaderContext leaf, BytesRef[] phrase, int[] positions, IntPredicate candidate,
        DocVisitor visitor) throws IOException {
      int n = phrase.length;
      if (postings.length < n) {
        postings = java.util.Arrays.copyOf(postings, n);
        offsets = new int[n];
        left = new int[n];
        at = new int[n];
      }
      // Slot 0 leads: the term in fewest documents, as a conjunction leads with its cheapest.
      int lead = 0;
      int leadFreq = Integer.MAX_VALUE;
      for (int s = 0; s < n; s++) {
        if (!terms.seekExact(phrase[s])) {
          return true; // a word the segment never holds: no document of it holds the phrase
        }
        if (terms.docFreq() < leadFreq) {
          leadFreq = terms.docFreq();
          lead = s;
        }
        postings[s] = terms.postings(postings[s], PostingsEnum.POSITIONS);
        offsets[s] = positions[s];
      }
      swap(0, lead); // any slot's enumeration serves any term of the field next time
      Bits live = leaf.reader().getLiveDocs();
      PostingsEnum first = postings[0];
      int doc = first.nextDoc();
      next:
      while (doc != DocIdSetIterator.NO_MORE_DOCS) {
        for (int s = 1; s < n; s++) {
          int other = postings[s].docID() < doc ? postings[s].advance(doc) : postings[s].docID();
          if (other > doc) {
            doc = first.advance(other);
            continue next;
          }
        }
        int global = leaf.docBase + doc;
        if ((live == null || live.get(doc)) && candidate.test(global) && holdsPhrase(n) && !visitor.visit(global)) {
          return false;
        }
        doc = first.nextDoc();
      }
      return true;
    }

    private void swap(int a, int b) {
      PostingsEnum p = postings[a];
      postings[a] = postings[b];
      postings[b] = p;
      int o = offsets[a];
      offsets[a] = offsets[b];
      offsets[b] = o;
    }

    /**
     * Whether the current document holds every slot's term at one start plus its offset: the lead's
     * positions propose starts, each other slot either confirms one or moves the lead past it.
     * Positions are read only as far as needed, as Lucene's exact phrase matcher reads them.
     */
    private boolean holdsPhrase(int n) throws IOException {
      for (int s = 0; s < n; s++) {
        left[s] = postings[s].freq();
        at[s] = Integer.MIN_VALUE;
      }
      if (!advanceTo(0, Integer.MIN_VALUE + 1)) {
        return false;
      }
      propose:
      while (true) {
        int start = at[0] - offsets[0];
        for (int s = 1; s < n; s++) {
          int wanted = start + offsets[s];
          if (!advanceTo(s, wanted)) {
            return false;
          }
          if (at[s] != wanted) {
            if (!advanceTo(0, at[s] - offsets[s] + offsets[0])) {
              return false;
            }
            continue propose;
          }
        }
        return true;
      }
    }

    /** Moves slot {@code s} to its first position at or after {@code target}; false when it has none. */
    private boolean advanceTo(int s, int target) throws IOException {
      while (at[s] < target) {
        if (left[s] == 0) {
          return false;
        }
        at[s] = postings[s].nextPosition();
        left[s]--;
      }
      return true;
    }
  }
}

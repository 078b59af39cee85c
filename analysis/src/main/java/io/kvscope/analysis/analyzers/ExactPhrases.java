package io.kvscope.analysis.analyzers;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.TermState;
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
 * segment's enumerations are made once and reused by every later phrase, and a word's positions are
 * read only in a document that holds the phrase's rarest words. Not for concurrent use, nor from
 * inside a visit.
 */
final class ExactPhrases {

  /** Told of each matching document (global id); returns false to stop. */
  interface DocVisitor {
    boolean visit(int doc) throws IOException;
  }

  private final List<LeafReaderContext> leaves;
  /** Per field, per segment: the terms enumeration and the kept positions enumerations. */
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
    Rarity rarity = new Rarity();
    for (int i = 0; i < leaves.size(); i++) {
      LeafReaderContext leaf = leaves.get(i);
      if (segments[i] == null) {
        Terms fieldTerms = leaf.reader().terms(field);
        segments[i] = fieldTerms == null ? Segment.EMPTY : new Segment(fieldTerms.iterator());
      }
      if (segments[i] != Segment.EMPTY && !segments[i].visit(leaf, terms, positions, rarity, candidate, visitor)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A phrase's words by rarity (rank to slot), as the first segment that holds every word counts
   * them; null until then. Later segments read their words in this order and look a word up only
   * when a document gets that far: looking up every word of a passage in every segment was a third
   * of the lookups' cost on the 22 segments of a Spark job's index (bench/README.md, "Spark: the
   * driver's analysis on the shards"). The order only makes the walk cheaper: any order finds the
   * same documents.
   */
  private static final class Rarity {
    int[] slotByRank;
  }

  /**
   * One segment's field: its terms enumeration and positions enumerations, kept between phrases.
   * The documents are those of the phrase's few rarest words ({@link #LEADS}); only a document
   * that holds all of them is checked further, word by word in rarity order, and a word's
   * enumeration is made ready only when a document gets that far. Most segments hold every word of
   * a passage somewhere and the passage itself in no document, and readying an enumeration per
   * word of a passage of hundreds of words was most of the lookups' cost (bench/README.md,
   * "Analysis CPU: the phrase lookups, the epochs and the writers").
   */
  private static final class Segment {
    static final Segment EMPTY = new Segment(null);
    /** Words whose documents are intersected before any position is read. */
    static final int LEADS = 3;
    /**
     * Positions enumerations kept, at most: a few kilobytes each, and a passage can be thousands of
     * words. A word ranked past them is read through one shared enumeration, readied for each
     * document that gets that far.
     */
    static final int KEPT_SLOTS = 64;

    private final TermsEnum terms;
    private final PostingsEnum[] kept = new PostingsEnum[KEPT_SLOTS];
    private PostingsEnum shared;
    // Per phrase, by rank (rarest word first): the word's slot, term and term state, and whether
    // its kept enumeration was readied for this phrase.
    private int[] slotOf = new int[0];
    private BytesRef[] words = new BytesRef[0];
    private TermState[] states = new TermState[0];
    private final boolean[] ready = new boolean[KEPT_SLOTS];
    private long[] byRarity = new long[0];
    /** Per rank: whether its word was looked up in this segment for this phrase (its state then valid). */
    private boolean[] sought = new boolean[0];
    /** Set when a word of the phrase turned out missing from the segment: no document of it holds the phrase. */
    private boolean absent;
    /** The current document's starts still possible, ascending. */
    private int[] starts = new int[16];

    Segment(TermsEnum terms) {
      this.terms = terms;
    }

    boolean visit(LeafReaderContext leaf, BytesRef[] phrase, int[] positions, Rarity rarity, IntPredicate candidate,
        DocVisitor visitor) throws IOException {
      int n = phrase.length;
      if (slotOf.length < n) {
        slotOf = new int[n];
        words = new BytesRef[n];
        states = new TermState[n];
        byRarity = new long[n];
        sought = new boolean[n];
      }
      if (rarity.slotByRank == null) {
        if (!rank(phrase, n)) {
          return true; // a word the segment never holds: no document of it holds the phrase
        }
        rarity.slotByRank = Arrays.copyOf(slotOf, n);
      } else {
        for (int r = 0; r < n; r++) {
          slotOf[r] = rarity.slotByRank[r];
          words[r] = phrase[slotOf[r]];
          sought[r] = false;
        }
      }
      int leads = Math.min(n, LEADS);
      Arrays.fill(ready, false);
      absent = false;
      for (int r = 0; r < leads; r++) {
        if (!seek(r)) {
          return true;
        }
        ready(r);
      }
      Bits live = leaf.reader().getLiveDocs();
      PostingsEnum first = kept[0];
      int doc = first.nextDoc();
      next:
      while (doc != DocIdSetIterator.NO_MORE_DOCS) {
        for (int r = 1; r < leads; r++) {
          int other = kept[r].docID() < doc ? kept[r].advance(doc) : kept[r].docID();
          if (other > doc) {
            doc = first.advance(other);
            continue next;
          }
        }
        int global = leaf.docBase + doc;
        if ((live == null || live.get(doc)) && candidate.test(global) && holdsPhrase(doc, n, positions)
            && !visitor.visit(global)) {
          return false;
        }
        if (absent) {
          return true; // a word the segment never holds, found on the way
        }
        doc = first.nextDoc();
      }
      return true;
    }

    /**
     * Looks every word up and orders them rarest first (ties in slot order), all sought; false when
     * a word is not in the segment.
     */
    private boolean rank(BytesRef[] phrase, int n) throws IOException {
      for (int s = 0; s < n; s++) {
        if (!terms.seekExact(phrase[s])) {
          return false;
        }
        states[s] = terms.termState();
        byRarity[s] = (long) terms.docFreq() << 32 | s;
      }
      Arrays.sort(byRarity, 0, n);
      TermState[] bySlot = Arrays.copyOf(states, n);
      for (int r = 0; r < n; r++) {
        slotOf[r] = (int) byRarity[r];
        words[r] = phrase[slotOf[r]];
        states[r] = bySlot[slotOf[r]];
        sought[r] = true;
      }
      return true;
    }

    /** Looks up the word of rank {@code r} unless it was; false (and {@link #absent}) when the segment lacks it. */
    private boolean seek(int r) throws IOException {
      if (!sought[r]) {
        if (!terms.seekExact(words[r])) {
          absent = true;
          return false;
        }
        states[r] = terms.termState();
        sought[r] = true;
      }
      return true;
    }

    /** Readies the kept enumeration of rank {@code r} on its word, at no document yet. */
    private PostingsEnum ready(int r) throws IOException {
      terms.seekExact(words[r], states[r]);
      kept[r] = terms.postings(kept[r], PostingsEnum.POSITIONS);
      ready[r] = true;
      return kept[r];
    }

    /**
     * Whether {@code doc}, where the leads' words all occur, holds every word at one start plus its
     * offset: the rarest word's positions propose the starts, each further word keeps those it
     * confirms, until none is left or every word has confirmed one.
     */
    private boolean holdsPhrase(int doc, int n, int[] positions) throws IOException {
      PostingsEnum first = kept[0];
      int count = first.freq();
      if (starts.length < count) {
        starts = new int[Math.max(count, 2 * starts.length)];
      }
      int leadOffset = positions[slotOf[0]];
      for (int i = 0; i < count; i++) {
        starts[i] = first.nextPosition() - leadOffset;
      }
      for (int r = 1; r < n && count > 0; r++) {
        PostingsEnum word = on(r, doc);
        if (word == null) {
          return false;
        }
        count = keepConfirmed(word, positions[slotOf[r]], count);
      }
      return count > 0;
    }

    /** The enumeration of rank {@code r} at {@code doc}, or null when its word is not in it. */
    private PostingsEnum on(int r, int doc) throws IOException {
      if (!seek(r)) {
        return null;
      }
      PostingsEnum word;
      if (r < KEPT_SLOTS) {
        word = ready[r] ? kept[r] : ready(r);
      } else {
        terms.seekExact(words[r], states[r]);
        word = shared = terms.postings(shared, PostingsEnum.POSITIONS);
      }
      int at = word.docID() < doc ? word.advance(doc) : word.docID();
      return at == doc ? word : null;
    }

    /** Keeps the first {@code count} starts at which {@code word} is at start + {@code offset}; returns how many. */
    private int keepConfirmed(PostingsEnum word, int offset, int count) throws IOException {
      int left = word.freq();
      int position = Integer.MIN_VALUE;
      int confirmed = 0;
      for (int i = 0; i < count; i++) {
        int wanted = starts[i] + offset;
        while (position < wanted && left > 0) {
          position = word.nextPosition();
          left--;
        }
        if (position == wanted) {
          starts[confirmed++] = starts[i];
        } else if (position < wanted) {
          break; // the word's positions ran out
        }
      }
      return confirmed;
    }
  }
}

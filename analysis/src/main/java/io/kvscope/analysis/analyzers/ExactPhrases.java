package io.kvscope.analysis.analyzers;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
    Words words = Words.of(terms, positions);
    for (int i = 0; i < leaves.size(); i++) {
      LeafReaderContext leaf = leaves.get(i);
      if (segments[i] == null) {
        Terms fieldTerms = leaf.reader().terms(field);
        segments[i] = fieldTerms == null ? Segment.EMPTY : new Segment(fieldTerms.iterator());
      }
      if (segments[i] != Segment.EMPTY && !segments[i].visit(leaf, words, candidate, visitor)) {
        return false;
      }
    }
    return true;
  }

  /**
   * A phrase's distinct words, each with the offsets it must be found at (ascending). A word the
   * phrase repeats is looked up and its positions read once for all its offsets: a passage of a
   * hundred words says "the" a dozen times, and in a prompt of megabytes reading its positions once
   * per offset was most of the lookups' cost (bench/README.md, "The passage lookups' positions at
   * 4 GB").
   */
  private static final class Words {
    final BytesRef[] terms;
    final int[][] offsets;
    /**
     * The words by rarity (rank to word), as the first segment that holds every word counts them;
     * null until then. Later segments read their words in this order and look a word up only when a
     * document gets that far: looking up every word of a passage in every segment was a third of the
     * lookups' cost on the 22 segments of a Spark job's index (bench/README.md, "Spark: the driver's
     * analysis on the shards"). The order only makes the walk cheaper: any order finds the same
     * documents.
     */
    int[] byRarity;

    private Words(BytesRef[] terms, int[][] offsets) {
      this.terms = terms;
      this.offsets = offsets;
    }

    static Words of(BytesRef[] terms, int[] positions) {
      Map<BytesRef, int[]> offsets = new LinkedHashMap<>();
      for (int slot = 0; slot < terms.length; slot++) {
        int[] known = offsets.get(terms[slot]);
        int[] of = known == null ? new int[1] : Arrays.copyOf(known, known.length + 1);
        of[of.length - 1] = positions[slot];
        offsets.put(terms[slot], of);
      }
      offsets.values().forEach(Arrays::sort);
      return new Words(offsets.keySet().toArray(BytesRef[]::new), offsets.values().toArray(int[][]::new));
    }

    int size() {
      return terms.length;
    }
  }

  /**
   * One segment's field: its terms enumeration and positions enumerations, kept between phrases.
   * The documents are those of the phrase's few rarest words ({@link #LEADS}); only a document
   * that holds all of them is checked further, one start at a time, word by word in rarity order,
   * and a word's enumeration is made ready only when a document gets that far. Most segments hold
   * every word of a passage somewhere and the passage itself in no document, and readying an
   * enumeration per word of a passage of hundreds of words was most of the lookups' cost
   * (bench/README.md, "Analysis CPU: the phrase lookups, the epochs and the writers").
   */
  private static final class Segment {
    static final Segment EMPTY = new Segment(null);
    /** Words whose documents are intersected before any position is read. */
    static final int LEADS = 3;
    /**
     * Positions enumerations kept, at most, one a distinct word: a few kilobytes each, and a passage
     * of thousands of words can hold hundreds of distinct ones. The positions of a word ranked past
     * them are read whole, through one shared enumeration, in each document that gets that far.
     */
    static final int KEPT = 256;

    private final TermsEnum terms;
    private PostingsEnum shared;
    /** The current phrase's words by rank, rarest first; grown to the longest phrase, reused. */
    private Rank[] ranks = new Rank[0];
    /** Set when a word of the phrase turned out missing from the segment: no document of it holds the phrase. */
    private boolean absent;

    Segment(TermsEnum terms) {
      this.terms = terms;
    }

    boolean visit(LeafReaderContext leaf, Words phrase, IntPredicate candidate, DocVisitor visitor) throws IOException {
      int n = phrase.size();
      if (ranks.length < n) {
        int had = ranks.length;
        ranks = Arrays.copyOf(ranks, n);
        for (int r = had; r < n; r++) {
          ranks[r] = new Rank();
        }
      }
      if (phrase.byRarity == null) {
        if (!rank(phrase)) {
          return true; // a word the segment never holds: no document of it holds the phrase
        }
      } else {
        for (int r = 0; r < n; r++) {
          ranks[r].reset(phrase, phrase.byRarity[r]);
        }
      }
      int leads = Math.min(n, LEADS);
      absent = false;
      for (int r = 0; r < leads; r++) {
        if (!seek(r)) {
          return true;
        }
        ready(r);
      }
      Bits live = leaf.reader().getLiveDocs();
      PostingsEnum first = ranks[0].postings;
      int doc = first.nextDoc();
      next:
      while (doc != DocIdSetIterator.NO_MORE_DOCS) {
        for (int r = 1; r < leads; r++) {
          PostingsEnum lead = ranks[r].postings;
          int other = lead.docID() < doc ? lead.advance(doc) : lead.docID();
          if (other > doc) {
            doc = first.advance(other);
            continue next;
          }
        }
        int global = leaf.docBase + doc;
        if ((live == null || live.get(doc)) && candidate.test(global) && holdsPhrase(doc, n, leads)
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
     * Looks every word up and orders them rarest first (ties in phrase order), all sought; false
     * when a word is not in the segment.
     */
    private boolean rank(Words phrase) throws IOException {
      int n = phrase.size();
      long[] byRarity = new long[n];
      TermState[] states = new TermState[n];
      for (int w = 0; w < n; w++) {
        if (!terms.seekExact(phrase.terms[w])) {
          return false;
        }
        states[w] = terms.termState();
        byRarity[w] = (long) terms.docFreq() << 32 | w;
      }
      Arrays.sort(byRarity);
      phrase.byRarity = new int[n];
      for (int r = 0; r < n; r++) {
        int w = (int) byRarity[r];
        phrase.byRarity[r] = w;
        ranks[r].reset(phrase, w);
        ranks[r].state = states[w];
        ranks[r].sought = true;
      }
      return true;
    }

    /** Looks up the word of rank {@code r} unless it was; false (and {@link #absent}) when the segment lacks it. */
    private boolean seek(int r) throws IOException {
      Rank rank = ranks[r];
      if (!rank.sought) {
        if (!terms.seekExact(rank.word)) {
          absent = true;
          return false;
        }
        rank.state = terms.termState();
        rank.sought = true;
      }
      return true;
    }

    /** Readies the kept enumeration of rank {@code r} on its word, at no document yet. */
    private PostingsEnum ready(int r) throws IOException {
      Rank rank = ranks[r];
      terms.seekExact(rank.word, rank.state);
      rank.postings = terms.postings(rank.postings, PostingsEnum.POSITIONS);
      rank.ready = true;
      return rank.postings;
    }

    /**
     * Whether {@code doc}, where the leads' words all occur, holds every word at one start plus its
     * offsets. The lead with the fewest positions in the document proposes the starts, in order;
     * each start is checked word by word until one fails, and the first start every word confirms
     * ends the walk, so no word's positions are read past the phrase's first occurrence.
     */
    private boolean holdsPhrase(int doc, int n, int leads) throws IOException {
      int proposer = 0;
      for (int r = 1; r < leads; r++) {
        if (ranks[r].postings.freq() < ranks[proposer].postings.freq()) {
          proposer = r;
        }
      }
      Positions proposed = on(proposer, doc).positions;
      int proposerOffset = ranks[proposer].offsets[0];
      for (int at = proposed.after(-1); at != Positions.NONE; at = proposed.after(at)) {
        int start = at - proposerOffset;
        int r = 0;
        for (; r < n; r++) {
          Rank rank = on(r, doc);
          if (rank == null) {
            return false; // a word the document lacks
          }
          if (!rank.holdsAt(start)) {
            break;
          }
        }
        if (r == n) {
          return true;
        }
      }
      return false;
    }

    /** Rank {@code r} with its positions in {@code doc} ready to be read, or null when its word is not in it. */
    private Rank on(int r, int doc) throws IOException {
      Rank rank = ranks[r];
      if (rank.doc == doc) {
        return rank;
      }
      if (!seek(r)) {
        return null;
      }
      PostingsEnum word;
      if (r < KEPT) {
        word = rank.ready ? rank.postings : ready(r);
      } else {
        terms.seekExact(rank.word, rank.state);
        word = shared = terms.postings(shared, PostingsEnum.POSITIONS);
      }
      int at = word.docID() < doc ? word.advance(doc) : word.docID();
      if (at != doc) {
        return null;
      }
      rank.positions.start(word, r >= KEPT);
      rank.doc = doc;
      return rank;
    }
  }

  /** One word of the current phrase in a segment, by rank: where it is looked up and read. */
  private static final class Rank {
    BytesRef word;
    int[] offsets;
    TermState state;
    /** Whether the word was looked up in this segment for this phrase (its state then valid). */
    boolean sought;
    /** Whether {@link #postings} was readied on the word for this phrase. */
    boolean ready;
    /** The kept enumeration (a rank past {@link Segment#KEPT} has none). */
    PostingsEnum postings;
    final Positions positions = new Positions();
    /** The document {@link #positions} were started in, or -1. */
    int doc = -1;

    void reset(Words phrase, int w) {
      word = phrase.terms[w];
      offsets = phrase.offsets[w];
      sought = false;
      ready = false;
      doc = -1;
    }

    /** Whether the word is at {@code start} plus each of its offsets; starts are asked in ascending order. */
    boolean holdsAt(int start) throws IOException {
      positions.forget(start + offsets[0]);
      for (int offset : offsets) {
        if (!positions.has(start + offset)) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * A word's positions in one document, read from its enumeration only as far as they are asked
   * for. Starts only ascend, so positions before the current start's are let go, and those held are
   * the word's positions within about one phrase's span.
   */
  private static final class Positions {
    static final int NONE = Integer.MAX_VALUE;
    /** A buffer larger than this (ints) is not kept for the next document. */
    private static final int MAX_KEPT_BUFFER = 4096;

    private PostingsEnum postings;
    private int left;
    private int[] held = new int[16];
    private int from;
    private int size;
    /** Positions before this are never asked for again. */
    private int floor;

    /** Starts on {@code postings}, which is at the document; reads them all at once when it is shared with other words. */
    void start(PostingsEnum postings, boolean readAll) throws IOException {
      this.postings = postings;
      left = postings.freq();
      from = size = 0;
      floor = Integer.MIN_VALUE;
      if (held.length > MAX_KEPT_BUFFER) {
        held = new int[16];
      }
      if (readAll) {
        while (left > 0) {
          read();
        }
        this.postings = null;
      }
    }

    /** Lets go of the positions before {@code floor}: they are not asked for again. */
    void forget(int floor) {
      this.floor = floor;
      while (from < size && held[from] < floor) {
        from++;
      }
    }

    /**
     * Whether the word is at {@code position} (not before the floor). Looked for from the floor on:
     * what is held there is the word's positions within about the phrase's span, few, and the first
     * is the usual answer.
     */
    boolean has(int position) throws IOException {
      while ((from == size || held[size - 1] < position) && left > 0) {
        read();
      }
      int i = from;
      while (i < size && held[i] < position) {
        i++;
      }
      return i < size && held[i] == position;
    }

    /** The word's first position after {@code position}, or {@link #NONE}; forgets those before it. */
    int after(int position) throws IOException {
      forget(position + 1);
      while (from == size && left > 0) {
        read();
      }
      return from == size ? NONE : held[from];
    }

    private void read() throws IOException {
      int position = postings.nextPosition();
      left--;
      if (position < floor) {
        return;
      }
      if (size == held.length) {
        if (from > 0) {
          System.arraycopy(held, from, held, 0, size - from);
          size -= from;
          from = 0;
        } else {
          held = Arrays.copyOf(held, 2 * held.length);
        }
      }
      held[size++] = position;
    }
  }
}

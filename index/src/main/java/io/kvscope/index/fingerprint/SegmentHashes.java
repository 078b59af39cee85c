package io.kvscope.index.fingerprint;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.index.PointValues.IntersectVisitor;
import org.apache.lucene.index.PointValues.Relation;
import org.apache.lucene.util.Bits;

/**
 * One segment's fingerprint points of one field, in ascending (unsigned) hash order with their doc
 * ids: the leaves of its 1-D BKD tree visited left to right, one leaf held at a time, so memory stays
 * a leaf's worth whatever the segment's size. Deleted documents are walked too (the walk counts
 * every hash the points hold, as the terms did), and told by {@link #isLive}.
 */
final class SegmentHashes implements IntersectVisitor {

  private final PointValues.PointTree tree;
  /** Added to the segment's doc ids: top-level ids. */
  final int docBase;
  /** The segment's live docs; null when all count as live. */
  private final Bits live;

  private long[] hashes = new long[512];
  private int[] docs = new int[512];
  private int size;
  private int at;
  private boolean started;

  SegmentHashes(PointValues values, int docBase, Bits live) throws IOException {
    if (values.getNumDimensions() != 1 || values.getBytesPerDimension() != FingerprintFields.BYTES) {
      throw new IllegalArgumentException("fingerprint points have one dimension of " + FingerprintFields.BYTES
          + " bytes, these " + values.getNumDimensions() + " of " + values.getBytesPerDimension());
    }
    this.tree = values.getPointTree();
    this.docBase = docBase;
    this.live = live;
  }

  long hash() {
    return hashes[at];
  }

  /** The current entry's top-level doc id. */
  int doc() {
    return docBase + docs[at];
  }

  /** Whether the current entry's document is live (always, when no live docs were given). */
  boolean isLive() {
    return live == null || live.get(docs[at]);
  }

  /** Moves to the next entry; false when there is none. */
  boolean next() throws IOException {
    return ++at < size || nextLeaf(0);
  }

  /** Moves to the first entry whose hash is at least {@code bound} (unsigned); false when there is none. */
  boolean skipTo(long bound) throws IOException {
    while (true) {
      for (; at < size; at++) {
        if (Long.compareUnsigned(hashes[at], bound) >= 0) {
          return true;
        }
      }
      if (!nextLeaf(bound)) {
        return false;
      }
    }
  }

  /**
   * Loads the next leaf, in tree order, holding a hash at least {@code bound}: whole subtrees below
   * it are passed over by their largest value alone. False when the tree has no more such leaf.
   */
  private boolean nextLeaf(long bound) throws IOException {
    size = 0;
    at = 0;
    if (started && !nextNode()) {
      return false;
    }
    started = true;
    while (true) {
      if (Long.compareUnsigned(FingerprintFields.hash(tree.getMaxPackedValue()), bound) < 0) {
        if (!nextNode()) {
          return false;
        }
      } else if (!tree.moveToChild()) {
        tree.visitDocValues(this);
        if (size > 0) {
          sortIfNeeded();
          return true;
        }
        if (!nextNode()) {
          return false;
        }
      }
    }
  }

  /** The node after the current one's subtree, in tree order; false past the last. */
  private boolean nextNode() throws IOException {
    while (!tree.moveToSibling()) {
      if (!tree.moveToParent()) {
        return false;
      }
    }
    return true;
  }

  /**
   * A 1-D tree's leaf holds its values sorted; ties are put in doc order here and, should a leaf
   * ever come unsorted, the whole leaf is (the merge across segments needs hash order).
   */
  private void sortIfNeeded() {
    for (int i = 1; i < size; i++) {
      int order = Long.compareUnsigned(hashes[i - 1], hashes[i]);
      if (order > 0 || (order == 0 && docs[i - 1] > docs[i])) {
        insertionSort();
        return;
      }
    }
  }

  private void insertionSort() {
    for (int i = 1; i < size; i++) {
      long hash = hashes[i];
      int doc = docs[i];
      int j = i - 1;
      for (; j >= 0; j--) {
        int order = Long.compareUnsigned(hashes[j], hash);
        if (order < 0 || (order == 0 && docs[j] < doc)) {
          break;
        }
        hashes[j + 1] = hashes[j];
        docs[j + 1] = docs[j];
      }
      hashes[j + 1] = hash;
      docs[j + 1] = doc;
    }
  }

  @Override
  public void grow(int count) {
    if (size + count > hashes.length) {
      hashes = Arrays.copyOf(hashes, size + count);
      docs = Arrays.copyOf(docs, size + count);
    }
  }

  @Override
  public void visit(int docID, byte[] packedValue) {
    grow(1);
    hashes[size] = FingerprintFields.hash(packedValue);
    docs[size++] = docID;
  }

  @Override
  public void visit(int docID) {
    throw new IllegalStateException("a leaf's values are read with their docs");
  }

  @Override
  public Relation compare(byte[] minPackedValue, byte[] maxPackedValue) {
    return Relation.CELL_CROSSES_QUERY;
  }
}

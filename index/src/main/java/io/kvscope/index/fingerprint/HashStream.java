package io.kvscope.index.fingerprint;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.PriorityQueue;

/**
 * The fingerprint points of one field over every segment of a reader, in ascending (unsigned) hash
 * order: each segment's {@link SegmentHashes} merged by a heap, so a walk holds one leaf a segment.
 * A hash and all its documents are {@linkplain #take taken} at once, as top-level doc ids.
 */
public final class HashStream {

  private final PriorityQueue<SegmentHashes> segments;

  /**
   * @param from the first hash (unsigned) the stream starts at
   * @param liveOnly whether deleted documents are left out
   * @throws IOException also when the index holds the field as terms (an earlier kvscope's index)
   */
  HashStream(IndexReader reader, String field, long from, boolean liveOnly) throws IOException {
    var leaves = reader.leaves();
    segments = new PriorityQueue<>(Math.max(1, leaves.size())) {
      @Override
      protected boolean lessThan(SegmentHashes a, SegmentHashes b) {
        int order = Long.compareUnsigned(a.hash(), b.hash());
        return order != 0 ? order < 0 : a.docBase < b.docBase;
      }
    };
    for (LeafReaderContext leaf : leaves) {
      PointValues values = pointValues(leaf.reader(), field);
      if (values != null) {
        Bits live = liveOnly ? leaf.reader().getLiveDocs() : null;
        SegmentHashes hashes = new SegmentHashes(values, leaf.docBase, live);
        if (hashes.skipTo(from)) {
          segments.add(hashes);
        }
      }
    }
  }

  private static PointValues pointValues(LeafReader leaf, String field) throws IOException {
    FieldInfo info = leaf.getFieldInfos().fieldInfo(field);
    if (info != null && FingerprintFields.heldAsTerms(info)) {
      throw new IOException("this index was built by an earlier kvscope: its fingerprints ('" + field
          + "') are terms, which this kvscope no longer reads, so its overlap analysis cannot run on it;"
          + " ingest the incident again into a new index directory");
    }
    return leaf.getPointValues(field);
  }

  boolean isEmpty() {
    return segments.size() == 0;
  }

  /** The smallest hash not taken yet; only when not {@link #isEmpty}. */
  long hash() {
    return segments.top().hash();
  }

  /** Passes over every hash below {@code bound} (unsigned). */
  void skipTo(long bound) throws IOException {
    while (segments.size() > 0 && Long.compareUnsigned(segments.top().hash(), bound) < 0) {
      if (segments.top().skipTo(bound)) {
        segments.updateTop();
      } else {
        segments.pop();
      }
    }
  }

  /** Replaces {@code into}'s content with the (live) docs of the current hash, ascending, and moves past it. */
  void take(DocList into) throws IOException {
    long hash = hash();
    into.size = 0;
    while (segments.size() > 0 && segments.top().hash() == hash) {
      SegmentHashes top = segments.top();
      if (top.isLive()) {
        into.add(top.doc());
      }
      if (top.next()) {
        segments.updateTop();
      } else {
        segments.pop();
      }
    }
    if (into.size > 1) {
      Arrays.sort(into.docs, 0, into.size);
    }
  }

  /**
   * The docs (top-level, ascending) whose {@code field} holds each of {@code hashes}, in the order
   * given: one walk of the points in hash order, however many hashes are asked for.
   */
  public static int[][] docsOf(IndexReader reader, String field, long[] hashes, boolean liveOnly) throws IOException {
    Integer[] order = new Integer[hashes.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compareUnsigned(hashes[a], hashes[b]));
    int[][] docs = new int[hashes.length][];
    HashStream stream = new HashStream(reader, field, 0, liveOnly);
    DocList found = new DocList();
    int[] none = new int[0];
    int previous = -1;
    for (int i : order) {
      if (previous >= 0 && hashes[previous] == hashes[i]) {
        docs[i] = docs[previous]; // asked twice: the stream is past it
      } else {
        stream.skipTo(hashes[i]);
        if (!stream.isEmpty() && stream.hash() == hashes[i]) {
          stream.take(found);
          docs[i] = Arrays.copyOf(found.docs, found.size);
        } else {
          docs[i] = none;
        }
      }
      previous = i;
    }
    return docs;
  }
}

package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.BoundedCache;
import java.io.IOException;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * A {@link TextIndex} that remembers who holds a passage. Real traffic repeats itself: a popular
 * answer reaches hundreds of recipients, and each of them asks the index again for the same
 * passage, with only the recipient (what is eligible) changing. The first lookup lists every
 * holder; later ones replay that list through the caller's filter, in the same order, so the
 * answers are the ones the index would give. Memory is bounded: least recently used passages go
 * first, and of a passage with very many holders only that fact is remembered, so it is asked
 * afresh, filtered, each time without being listed whole again.
 */
final class RememberedHolders implements TextIndex {

  /** Chars of remembered passages plus remembered holders, at most (about 2 bytes each). */
  static final long MAX_WEIGHT = 24_000_000;
  /** A passage held more often than this is looked up afresh each time. */
  static final int MAX_HOLDERS = 100_000;

  private final TextIndex index;
  /** What is remembered of a passage held more than {@link #MAX_HOLDERS} times. */
  private static final long[] TOO_MANY = new long[0];

  private final BoundedCache<String, long[]> remembered = new BoundedCache<>(MAX_WEIGHT, RememberedHolders::weightOf);
  long hits;

  RememberedHolders(TextIndex index) {
    this.index = index;
  }

  @Override
  public void holders(String passage, IntPredicate eligible, HolderVisitor visitor) throws IOException {
    long[] holders = remembered.get(passage);
    if (holders == null) {
      holders = lookUp(passage);
      remembered.put(passage, holders);
    } else if (holders != TOO_MANY) {
      hits++;
    }
    if (holders == TOO_MANY) {
      index.holders(passage, eligible, visitor);
      return;
    }
    for (long encoded : holders) {
      int doc = (int) (encoded >>> 1);
      if (eligible.test(doc) && !visitor.visit(doc, (encoded & 1) == 1)) {
        return;
      }
    }
  }

  /** Every holder, as doc * 2 + (in reply ? 1 : 0), in the index's order; {@link #TOO_MANY} when too many. */
  private long[] lookUp(String passage) throws IOException {
    long[][] found = {new long[16]};
    int[] count = {0};
    index.holders(passage, doc -> true, (doc, inReply) -> {
      if (count[0] == MAX_HOLDERS) {
        count[0]++;
        return false;
      }
      if (count[0] == found[0].length) {
        found[0] = Arrays.copyOf(found[0], found[0].length * 2);
      }
      found[0][count[0]++] = (long) doc << 1 | (inReply ? 1 : 0);
      return true;
    });
    return count[0] > MAX_HOLDERS ? TOO_MANY : Arrays.copyOf(found[0], count[0]);
  }

  private static long weightOf(String passage, long[] holders) {
    return passage.length() + 4L * holders.length;
  }

  @Override
  public int replyTenants(String piece, int atMost) throws IOException {
    return index.replyTenants(piece, atMost);
  }

  @Override
  public String text(int doc, String field) throws IOException {
    return index.text(doc, field);
  }
}

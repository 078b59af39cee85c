package io.kvscope.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.shiftleft;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/**
 * The postings of each fingerprint counted from rows sorted by (hash, request): responses and
 * prompts holding it, documents (distinct requests) and distinct tenants, for the fingerprints some
 * response holds and at least two documents share ({@link FingerprintStage#frequencies}). A shared
 * fingerprint's row also hands on its postings, in the sorted order, for the self-join to read
 * instead of every fingerprint row again ({@link PairStage}); one fingerprint's postings are in
 * memory at a time, and rows stream in and out.
 */
final class PostingCounts implements Iterator<Row> {

  private final Iterator<Row> sorted;
  /** Tenants seen in the current fingerprint, and which bits to clear when it ends. */
  private final BitSet tenantsSeen = new BitSet();
  private int[] tenantsSet = new int[16];
  /** The current fingerprint's postings, while there are at most {@link #maxPostings}. */
  private long[] postings = new long[16];
  private final int maxPostings;
  private Row pending;
  private Row next;

  private PostingCounts(Iterator<Row> sorted, int maxPostings) {
    this.sorted = sorted;
    this.maxPostings = maxPostings;
    this.pending = sorted.hasNext() ? sorted.next() : null;
  }

  /**
   * A fingerprint row's request, side and tenant in one long, the request highest: the rows move and
   * are sorted as two longs (hash, posting) instead of four columns, and sorting by it sorts by
   * request. Ordinals are never negative, so each fits its bits: the request 32, the side 1, the
   * tenant 31.
   */
  static Column posting() {
    return shiftleft(col("request").cast("long"), 32).bitwiseOR(shiftleft(col("side").cast("long"), 31))
        .bitwiseOR(col("tenant").cast("long"));
  }

  /**
   * The shared fingerprints' counts from {@code sorted}'s rows (hash, {@link #posting()}), each with
   * its postings when it has at most {@code maxPostings} (else null).
   */
  static Iterator<Row> shared(Iterator<Row> sorted, int maxPostings) {
    return new PostingCounts(sorted, maxPostings);
  }

  /** A posting's request ordinal. */
  static int request(long posting) {
    return (int) (posting >>> 32);
  }

  /** A posting's side: {@link FingerprintStage#PROMPT} or {@link FingerprintStage#RESPONSE}. */
  static byte side(long posting) {
    return (byte) (posting >>> 31 & 1);
  }

  /** A posting's tenant ordinal. */
  static int tenant(long posting) {
    return (int) (posting & Integer.MAX_VALUE);
  }

  @Override
  public boolean hasNext() {
    while (next == null && pending != null) {
      next = countOne();
    }
    return next != null;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Row row = next;
    next = null;
    return row;
  }

  /** Counts the fingerprint of {@link #pending}; its row if shared, else null. */
  private Row countOne() {
    long hash = pending.getLong(0);
    long responses = 0;
    long prompts = 0;
    long documents = 0;
    int tenants = 0;
    int lastRequest = 0;
    long held = 0;
    while (pending != null && pending.getLong(0) == hash) {
      long posting = pending.getLong(1);
      if (held < maxPostings) {
        if (held == postings.length) {
          postings = Arrays.copyOf(postings, postings.length * 2);
        }
        postings[(int) held] = posting;
      }
      held++;
      if (side(posting) == FingerprintStage.RESPONSE) {
        responses++;
      } else {
        prompts++;
      }
      int request = request(posting);
      if (documents == 0 || request != lastRequest) {
        documents++;
        lastRequest = request;
      }
      int tenant = tenant(posting);
      if (!tenantsSeen.get(tenant)) {
        tenantsSeen.set(tenant);
        if (tenants == tenantsSet.length) {
          tenantsSet = Arrays.copyOf(tenantsSet, tenants * 2);
        }
        tenantsSet[tenants++] = tenant;
      }
      pending = sorted.hasNext() ? sorted.next() : null;
    }
    for (int i = 0; i < tenants; i++) {
      tenantsSeen.clear(tenantsSet[i]);
    }
    if (responses == 0 || documents < 2) {
      return null;
    }
    return RowFactory.create(hash, responses, prompts, documents, (long) tenants,
        held <= maxPostings ? Arrays.copyOf(postings, (int) held) : null);
  }
}

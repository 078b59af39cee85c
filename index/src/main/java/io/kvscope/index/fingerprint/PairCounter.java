package io.kvscope.index.fingerprint;

import io.kvscope.model.fingerprint.HashMixing;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Counts shared fingerprints per (recipient, source) doc pair in bounded memory.
 *
 * <p>The join walks fingerprints in hash order, so pairs arrive in no useful order. Pairs are
 * counted in an open-addressing table of at most {@code maxEntries} entries (16 bytes each at
 * most 75% load); when it is full, its entries are written to disk as a run sorted by pair and
 * the table is cleared. {@link #emit} merges the runs (or sorts the table when nothing spilled)
 * and hands out pairs in (recipient, source) order with their summed counts, so memory stays
 * bounded however many pairs there are, and callers can verify one recipient at a time.
 *
 * <p>A pair key is {@code recipient << 32 | source}; key 0 would be the self pair (0, 0), which is
 * never counted, so 0 marks a free slot. A count packs prompt hits in the high and response hits
 * in the low 32 bits.
 */
final class PairCounter implements Closeable {

  private static final long PROMPT_HIT = 1L << 32;
  private static final long RESPONSE_HIT = 1L;
  private static final int MIN_CAPACITY = 1 << 10;

  private final int maxEntries;
  private final Path spillDirectory;
  private final List<Path> runs = new ArrayList<>();
  private long[] keys;
  private long[] counts;
  private int size;
  private int mask;

  PairCounter(int maxEntries, Path spillDirectory) {
    this.maxEntries = maxEntries;
    this.spillDirectory = spillDirectory;
    allocate(Math.min(MIN_CAPACITY, capacityFor(maxEntries)));
  }

  int spilledRuns() {
    return runs.size();
  }

  void add(int recipient, int source, boolean viaPrompt) throws IOException {
    long key = ((long) recipient << 32) | (source & 0xFFFFFFFFL);
    long hit = viaPrompt ? PROMPT_HIT : RESPONSE_HIT;
    int slot = (int) HashMixing.fmix64(key) & mask;
    while (keys[slot] != 0) {
      if (keys[slot] == key) {
        counts[slot] += hit;
        return;
      }
      slot = (slot + 1) & mask;
    }
    keys[slot] = key;
    counts[slot] = hit;
    size++;
    if (size > (mask + 1) * 3 / 4) {
      if (mask + 1 < capacityFor(maxEntries)) {
        grow();
      }
    }
    if (size >= maxEntries) {
      spill();
    }
  }

  /**
   * Emits every pair with at least {@code minShared} fingerprints, in (recipient, source) order.
   * Returns the number emitted. The counter is empty afterwards.
   */
  long emit(int minShared, CandidateSink sink) throws IOException {
    if (runs.isEmpty()) {
      long[] sorted = sortedKeys();
      long emitted = 0;
      for (long key : sorted) {
        if (emitIfEnough(key, countOf(key), minShared, sink)) {
          emitted++;
        }
      }
      clear();
      return emitted;
    }
    if (size > 0) {
      spill();
    }
    return mergeRuns(minShared, sink);
  }

  @Override
  public void close() throws IOException {
    IOException failure = null;
    for (Path run : runs) {
      try {
        Files.deleteIfExists(run);
      } catch (IOException e) {
        failure = e;
      }
    }
    runs.clear();
    if (failure != null) {
      throw failure;
    }
  }

  private static boolean emitIfEnough(long key, long count, int minShared, CandidateSink sink)
      throws IOException {
    int viaPrompt = (int) (count >>> 32);
    int viaResponse = (int) count;
    if (viaPrompt + viaResponse < minShared) {
      return false;
    }
    sink.accept(new Candidate((int) (key >>> 32), (int) key, viaPrompt, viaResponse));
    return true;
  }

  private long mergeRuns(int minShared, CandidateSink sink) throws IOException {
    PriorityQueue<RunReader> queue =
        new PriorityQueue<>(Math.max(1, runs.size()), (a, b) -> Long.compare(a.key, b.key));
    List<RunReader> readers = new ArrayList<>();
    try {
      for (Path run : runs) {
        RunReader reader = new RunReader(run);
        readers.add(reader);
        if (reader.advance()) {
          queue.add(reader);
        }
      }
      long emitted = 0;
      long currentKey = 0;
      long currentCount = 0;
      while (!queue.isEmpty()) {
        RunReader top = queue.poll();
        if (top.key != currentKey && currentKey != 0) {
          if (emitIfEnough(currentKey, currentCount, minShared, sink)) {
            emitted++;
          }
          currentCount = 0;
        }
        currentKey = top.key;
        currentCount += top.count;
        if (top.advance()) {
          queue.add(top);
        }
      }
      if (currentKey != 0 && emitIfEnough(currentKey, currentCount, minShared, sink)) {
        emitted++;
      }
      return emitted;
    } finally {
      for (RunReader reader : readers) {
        reader.close();
      }
    }
  }

  private void spill() throws IOException {
    long[] sorted = sortedKeys();
    Path run = createRunFile();
    runs.add(run);
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), 1 << 16))) {
      out.writeInt(sorted.length);
      for (long key : sorted) {
        out.writeLong(key);
        out.writeLong(countOf(key));
      }
    }
    clear();
  }

  private Path createRunFile() throws IOException {
    Path dir = spillDirectory != null ? spillDirectory : Path.of(System.getProperty("java.io.tmpdir"));
    if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      return Files.createTempFile(
          dir, "kvscope-pairs-", ".run",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    return Files.createTempFile(dir, "kvscope-pairs-", ".run");
  }

  private long[] sortedKeys() {
    long[] sorted = new long[size];
    int n = 0;
    for (long key : keys) {
      if (key != 0) {
        sorted[n++] = key;
      }
    }
    Arrays.sort(sorted); // keys are non-negative, so signed order is (recipient, source) order
    return sorted;
  }

  private long countOf(long key) {
    int slot = (int) HashMixing.fmix64(key) & mask;
    while (keys[slot] != key) {
      slot = (slot + 1) & mask;
    }
    return counts[slot];
  }

  private void clear() {
    Arrays.fill(keys, 0L);
    size = 0;
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldCounts = counts;
    allocate(oldKeys.length * 2);
    for (int i = 0; i < oldKeys.length; i++) {
      long key = oldKeys[i];
      if (key != 0) {
        int slot = (int) HashMixing.fmix64(key) & mask;
        while (keys[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        keys[slot] = key;
        counts[slot] = oldCounts[i];
      }
    }
  }

  private void allocate(int capacity) {
    keys = new long[capacity];
    counts = new long[capacity];
    mask = capacity - 1;
  }

  /** Smallest power of two that holds {@code entries} at 75% load. */
  private static int capacityFor(int entries) {
    long needed = (long) entries * 4 / 3 + 1;
    return (int) Math.min(1 << 30, Long.highestOneBit(needed - 1) << 1);
  }

  /** Sequential reader of one spilled run. */
  private static final class RunReader implements Closeable {
    private final DataInputStream in;
    private int remaining;
    long key;
    long count;

    RunReader(Path run) throws IOException {
      this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(run), 1 << 16));
      this.remaining = in.readInt();
    }

    boolean advance() throws IOException {
      if (remaining == 0) {
        return false;
      }
      remaining--;
      key = in.readLong();
      count = in.readLong();
      return true;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}

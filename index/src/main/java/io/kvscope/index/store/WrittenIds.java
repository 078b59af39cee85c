package io.kvscope.index.store;

/**
 * The document ids written to an index that had no documents when it was opened, kept as 64-bit
 * hashes (16 bytes an id at most, where a set of strings held about ten times that), so that the
 * first write of an id can add the document instead of replacing it. A replace costs Lucene a
 * delete term per document, kept until the flush and looked up there in every segment; most ids
 * of an ingest are written once. Two ids of one hash make the second write a replace, which is
 * still right (only slower). Safe for concurrent use by the writer threads.
 */
final class WrittenIds {

  private static final long EMPTY = 0L;

  private long[] table = new long[1 << 12];
  private int size;

  /** Records {@code id}; true when no id of its hash was recorded before (the id is certainly new). */
  synchronized boolean addIfNew(String id) {
    long hash = hash(id);
    int mask = table.length - 1;
    for (int slot = (int) hash & mask; ; slot = (slot + 1) & mask) {
      if (table[slot] == hash) {
        return false;
      }
      if (table[slot] == EMPTY) {
        table[slot] = hash;
        if (++size * 2 > table.length) {
          grow();
        }
        return true;
      }
    }
  }

  private void grow() {
    long[] old = table;
    table = new long[old.length * 2];
    int mask = table.length - 1;
    for (long hash : old) {
      if (hash != EMPTY) {
        int slot = (int) hash & mask;
        while (table[slot] != EMPTY) {
          slot = (slot + 1) & mask;
        }
        table[slot] = hash;
      }
    }
  }

  /** FNV-1a over the chars, then a finalizer that spreads every bit to the low ones the table indexes by. */
  private static long hash(String id) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < id.length(); i++) {
      h = (h ^ id.charAt(i)) * 0x100000001b3L;
    }
    h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccdL;
    h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h == EMPTY ? 1L : h;
  }
}

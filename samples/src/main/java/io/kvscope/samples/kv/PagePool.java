package io.kvscope.samples.kv;

import java.util.Arrays;
import java.util.BitSet;

/**
 * A paged KV pool. Allocation takes the lowest free page indices (as an allocator that keeps its
 * free list sorted does), so recently released pages are reused first and older content survives
 * higher up. Release marks pages free and leaves their content as it was.
 *
 * <p>Content is tracked per page as (owner, offset, fill): the page holds positions
 * {@code [offset, offset + fill)} of its owner's token sequence. Owners are request ordinals;
 * {@link #NONE} marks a page never written since the process started.
 */
public final class PagePool {

  public static final int NONE = -1;

  /** Told when a request's last page is overwritten, so its description can be forgotten. */
  public interface OwnerListener {
    void gained(int owner);

    void lost(int owner);
  }

  private final int pageSize;
  private final int pages;
  private final BitSet free;
  private final int[] owner;
  private final int[] offset;
  private final int[] fill;
  private final OwnerListener listener;
  private int freeCount;

  public PagePool(long tokens, int pageSize, OwnerListener listener) {
    this.pageSize = pageSize;
    this.pages = (int) (tokens / pageSize);
    this.free = new BitSet(pages);
    free.set(0, pages);
    this.freeCount = pages;
    this.owner = new int[pages];
    this.offset = new int[pages];
    this.fill = new int[pages];
    Arrays.fill(owner, NONE);
    this.listener = listener;
  }

  public int pageSize() {
    return pageSize;
  }

  public int pages() {
    return pages;
  }

  public int freePages() {
    return freeCount;
  }

  public int usedPages() {
    return pages - freeCount;
  }

  public static int pagesFor(long tokens, int pageSize) {
    return (int) ((tokens + pageSize - 1) / pageSize);
  }

  /** Takes the {@code n} lowest free pages, or returns null when fewer are free. */
  public int[] allocate(int n) {
    if (n > freeCount) {
      return null;
    }
    int[] out = new int[n];
    int p = -1;
    for (int i = 0; i < n; i++) {
      p = free.nextSetBit(p + 1);
      out[i] = p;
    }
    for (int page : out) {
      free.clear(page);
    }
    freeCount -= n;
    return out;
  }

  /** Returns pages to the free set; their content stays. */
  public void release(int[] pagesToFree) {
    for (int page : pagesToFree) {
      if (free.get(page)) {
        throw new IllegalStateException("double free of page " + page);
      }
      free.set(page);
    }
    freeCount += pagesToFree.length;
  }

  /** Records that {@code page} now holds positions {@code [pos, pos + count)} of {@code newOwner}. */
  public void write(int page, int newOwner, int pos, int count) {
    int old = owner[page];
    if (old != newOwner) {
      if (old != NONE) {
        listener.lost(old);
      }
      if (newOwner != NONE) {
        listener.gained(newOwner);
      }
    }
    owner[page] = newOwner;
    offset[page] = pos;
    fill[page] = count;
  }

  /**
   * Writes a request's sequence of {@code length} tokens into its pages, page {@code i} holding
   * positions {@code [i * pageSize, ...)}.
   */
  public void writeSequence(int[] reserved, int newOwner, long length) {
    for (int i = 0; i < reserved.length; i++) {
      long pos = (long) i * pageSize;
      if (pos >= length) {
        break;
      }
      write(reserved[i], newOwner, (int) pos, (int) Math.min(pageSize, length - pos));
    }
  }

  /** A restart: the new process knows nothing about what the memory held. */
  public void forgetAll() {
    for (int p = 0; p < pages; p++) {
      if (owner[p] != NONE) {
        write(p, NONE, 0, 0);
      }
    }
  }

  public int owner(int page) {
    return owner[page];
  }

  public int offset(int page) {
    return offset[page];
  }

  public int fill(int page) {
    return fill[page];
  }
}

package io.kvscope.probe.enginedouble;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A paged KV pool as the incident needs it: pages hold the text of the tokens written to them, are
 * handed out most-recently-freed first, and are never zeroed, so a page keeps its last request's
 * content until someone writes over it. A "token" is four characters of text.
 */
final class PagedKvPool {

  static final int CHARS_PER_TOKEN = 4;

  private final int pageTokens;
  private final String[] pages;
  private final Deque<Integer> free = new ArrayDeque<>();

  PagedKvPool(long tokens, int pageTokens) {
    this.pageTokens = pageTokens;
    this.pages = new String[(int) (tokens / pageTokens)];
    for (int i = 0; i < pages.length; i++) {
      pages[i] = "";
      free.addLast(i);
    }
  }

  int pageChars() {
    return pageTokens * CHARS_PER_TOKEN;
  }

  int capacityPages() {
    return pages.length;
  }

  static long tokens(String text) {
    return (text.length() + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
  }

  int pagesFor(long tokens) {
    return (int) ((tokens + pageTokens - 1) / pageTokens);
  }

  /** {@code n} pages, waiting for them to be freed; null when the pool can never hold them. */
  synchronized int[] allocate(int n) throws InterruptedException {
    if (n > pages.length) {
      return null;
    }
    while (free.size() < n) {
      wait();
    }
    return take(n);
  }

  /** As many of {@code n} pages as are free now: the decode side's reservation in the incident. */
  synchronized int[] reserveUpTo(int n) {
    return take(Math.min(n, free.size()));
  }

  private int[] take(int n) {
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = free.pollFirst();
    }
    return ids;
  }

  /** Writes {@code text} across the pages in order, a page's worth each. */
  synchronized void write(int[] ids, String text) {
    int chars = pageChars();
    for (int i = 0; i < ids.length; i++) {
      int from = Math.min(text.length(), i * chars);
      int to = Math.min(text.length(), from + chars);
      pages[ids[i]] = text.substring(from, to) + pages[ids[i]].substring(Math.min(pages[ids[i]].length(), to - from));
    }
  }

  synchronized String read(int[] ids) {
    StringBuilder b = new StringBuilder();
    for (int id : ids) {
      b.append(pages[id]);
    }
    return b.toString();
  }

  /** Back to the free list, content kept: the next allocation reads what was left here. */
  synchronized void release(int[] ids) {
    for (int i = ids.length - 1; i >= 0; i--) {
      free.addFirst(ids[i]);
    }
    notifyAll();
  }
}

package io.kvscope.index.fingerprint;

import java.util.Arrays;

/** The live doc ids of one fingerprint in one field, ascending; a reusable buffer. */
final class DocList {

  int[] docs = new int[16];
  int size;

  void add(int doc) {
    if (size == docs.length) {
      docs = Arrays.copyOf(docs, size * 2);
    }
    docs[size++] = doc;
  }
}

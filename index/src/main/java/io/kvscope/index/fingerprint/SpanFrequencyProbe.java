package io.kvscope.index.fingerprint;

import io.kvscope.model.fingerprint.FingerprintConfig;
import io.kvscope.model.fingerprint.KGramHasher;
import io.kvscope.model.fingerprint.TextRange;
import io.kvscope.model.fingerprint.TokenizedText;
import io.kvscope.model.fingerprint.Winnower;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.IntUnaryOperator;
import org.apache.lucene.index.IndexReader;

/**
 * Tells boilerplate from a leak after verification, at the level of a whole span.
 *
 * <p>The join's per-fingerprint cut-off cannot see everything: at the edges of a shared passage
 * winnowing picks fingerprints from windows that overlap the surrounding text, so the same
 * boilerplate sentence can yield edge fingerprints that only a few of the documents containing it
 * selected. Windows lying wholly inside a span, however, select the same fingerprint in every
 * document that contains the span. This probe winnows the span on its own (so only such windows
 * count) and intersects the documents of those fingerprints: the result bounds how many documents
 * and tenants contain the span. A span that more tenants than the cut-off contain is boilerplate.
 * One probe costs a walk of the points the span's fingerprints lie in; use it on verified spans,
 * not on candidates.
 */
public final class SpanFrequencyProbe {

  private final IndexReader reader;
  private final IntUnaryOperator tenantOf;
  private final FingerprintConfig config;

  public SpanFrequencyProbe(IndexReader reader, IntUnaryOperator tenantOf, FingerprintConfig config) {
    this.reader = Objects.requireNonNull(reader, "reader");
    this.tenantOf = Objects.requireNonNull(tenantOf, "tenantOf");
    this.config = Objects.requireNonNull(config, "config");
  }

  /** Frequency of the tokens {@code range} of {@code text}; the range needs at least T tokens. */
  public SpanFrequency frequency(TokenizedText text, TextRange range) throws IOException {
    if (range.tokenCount() < config.threshold()) {
      throw new IllegalArgumentException(
          "a span of " + range.tokenCount() + " tokens is shorter than T=" + config.threshold());
    }
    long[] tokenHashes =
        Arrays.copyOfRange(text.hashArray(), range.tokenStart(), range.tokenEnd());
    long[] hashes =
        Winnower.winnow(KGramHasher.hash(tokenHashes, config.k()), config.window())
            .distinctHashes();
    int[][] inPrompts = HashStream.docsOf(reader, FingerprintFields.PROMPT, hashes, true);
    int[][] inResponses = HashStream.docsOf(reader, FingerprintFields.RESPONSE, hashes, true);
    int[] docs = null;
    int size = 0;
    for (int i = 0; i < hashes.length; i++) {
      int[] union = union(inPrompts[i], inResponses[i]);
      if (docs == null) {
        docs = union;
        size = union.length;
      } else {
        size = intersect(docs, size, union);
      }
      if (size == 0) {
        break;
      }
    }
    if (docs == null) {
      return new SpanFrequency(0, 0, 0);
    }
    int tenants = 0;
    int[] known = new int[size];
    int knownCount = 0;
    for (int i = 0; i < size; i++) {
      int tenant = tenantOf.applyAsInt(docs[i]);
      if (tenant < 0) {
        tenants++;
      } else {
        known[knownCount++] = tenant;
      }
    }
    Arrays.sort(known, 0, knownCount);
    for (int i = 0; i < knownCount; i++) {
      if (i == 0 || known[i] != known[i - 1]) {
        tenants++;
      }
    }
    return new SpanFrequency(hashes.length, size, tenants);
  }

  private static int[] union(int[] a, int[] b) {
    int[] out = new int[a.length + b.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length || j < b.length) {
      if (j >= b.length || (i < a.length && a[i] < b[j])) {
        out[n++] = a[i++];
      } else if (i >= a.length || b[j] < a[i]) {
        out[n++] = b[j++];
      } else {
        out[n++] = a[i++];
        j++;
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** Keeps in {@code docs[0, size)} the docs also in sorted {@code other}; returns the new size. */
  private static int intersect(int[] docs, int size, int[] other) {
    int n = 0;
    int j = 0;
    for (int i = 0; i < size; i++) {
      while (j < other.length && other[j] < docs[i]) {
        j++;
      }
      if (j < other.length && other[j] == docs[i]) {
        docs[n++] = docs[i];
      }
    }
    return n;
  }
}

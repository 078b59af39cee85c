package io.kvscope.samples.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A text together with what makes parts of it attributable: the token ranges of private prose that
 * belongs to this one request (not boilerplate, not a quote of something else) and the
 * request-unique identifiers planted in it.
 *
 * @param privateRanges pairs {@code [start, end)} of token indices, ascending and disjoint
 * @param idTokens token index of each identifier
 */
public record Composed(TokenText text, int[] privateRanges, int[] idTokens, IdCategory[] idCategories,
    String[] idValues, List<Embed> embeds) {

  /**
   * A shared text copied into this one: tokens {@code [tokenStart, tokenEnd)} here are tokens
   * {@code [sharedFrom, sharedFrom + tokenEnd - tokenStart)} of shared text {@code key}.
   */
  public record Embed(int key, int tokenStart, int tokenEnd, int sharedFrom) {

    /** Char range of the shared text that was copied: {@code [start, end)}. */
    public int sharedCharStart(TokenText shared) {
      return shared.contentStart(sharedFrom);
    }

    public int sharedCharEnd(TokenText shared) {
      return shared.spanEnd(sharedFrom + tokenEnd - tokenStart);
    }
  }

  /** The first {@code n} tokens (a reply cut at max_tokens). */
  public Composed truncate(int n) {
    if (n >= text.tokenCount()) {
      return this;
    }
    TokenText.Builder b = TokenText.builder(n);
    b.appendRange(text, 0, n);
    int[] r = new int[privateRanges.length];
    int k = 0;
    for (int i = 0; i < privateRanges.length; i += 2) {
      int s = privateRanges[i];
      int e = Math.min(privateRanges[i + 1], n);
      if (s < e) {
        r[k++] = s;
        r[k++] = e;
      }
    }
    int m = 0;
    for (int t : idTokens) {
      if (t < n) {
        m++;
      }
    }
    int[] ids = new int[m];
    IdCategory[] cats = new IdCategory[m];
    String[] vals = new String[m];
    int j = 0;
    for (int i = 0; i < idTokens.length; i++) {
      if (idTokens[i] < n) {
        ids[j] = idTokens[i];
        cats[j] = idCategories[i];
        vals[j] = idValues[i];
        j++;
      }
    }
    List<Embed> embeds = new ArrayList<>();
    for (Embed e : this.embeds) {
      if (e.tokenStart() < n) {
        embeds.add(new Embed(e.key(), e.tokenStart(), Math.min(e.tokenEnd(), n), e.sharedFrom()));
      }
    }
    return new Composed(b.build(), Arrays.copyOf(r, k), ids, cats, vals, List.copyOf(embeds));
  }

  public static Composed plain(TokenText text) {
    return new Composed(text, new int[0], new int[0], new IdCategory[0], new String[0], List.of());
  }

  /** Builds a {@link Composed}: write with {@link #out()}, bracket private prose with begin/end. */
  public static final class Builder implements IdRecorder {
    private final TokenText.Builder out;
    private int[] ranges = new int[8];
    private int rangeInts;
    private int privateStart = -1;
    private int[] ids = new int[4];
    private IdCategory[] cats = new IdCategory[4];
    private String[] values = new String[4];
    private int idCount;
    private final List<Embed> embeds = new ArrayList<>();

    public Builder(int expectedTokens) {
      out = TokenText.builder(expectedTokens);
    }

    public TokenText.Builder out() {
      return out;
    }

    public Builder beginPrivate() {
      if (privateStart < 0) {
        privateStart = out.tokenCount();
      }
      return this;
    }

    public Builder endPrivate() {
      if (privateStart >= 0 && out.tokenCount() > privateStart) {
        if (rangeInts + 2 > ranges.length) {
          ranges = Arrays.copyOf(ranges, ranges.length * 2);
        }
        ranges[rangeInts++] = privateStart;
        ranges[rangeInts++] = out.tokenCount();
      }
      privateStart = -1;
      return this;
    }

    @Override
    public void record(int tokenIndex, IdCategory category, String value) {
      if (idCount == ids.length) {
        ids = Arrays.copyOf(ids, idCount * 2);
        cats = Arrays.copyOf(cats, idCount * 2);
        values = Arrays.copyOf(values, idCount * 2);
      }
      ids[idCount] = tokenIndex;
      cats[idCount] = category;
      values[idCount] = value;
      idCount++;
    }

    /**
     * Appends tokens {@code [from, to)} of shared text {@code shared} (key {@code key}) verbatim and
     * records where they came from.
     */
    public Builder embed(int key, TokenText shared, int from, int to) {
      endPrivate();
      if (from < to) {
        int start = out.tokenCount();
        out.appendRange(shared, from, to);
        embeds.add(new Embed(key, start, out.tokenCount(), from));
      }
      return this;
    }

    /** Appends another composed text, keeping its private ranges and identifiers. */
    public Builder append(Composed c) {
      endPrivate();
      if (c.text().tokenCount() == 0) {
        return this;
      }
      int base = out.tokenCount();
      out.append(c.text());
      for (int i = 0; i < c.privateRanges().length; i += 2) {
        if (rangeInts + 2 > ranges.length) {
          ranges = Arrays.copyOf(ranges, ranges.length * 2);
        }
        ranges[rangeInts++] = base + c.privateRanges()[i];
        ranges[rangeInts++] = base + c.privateRanges()[i + 1];
      }
      for (int i = 0; i < c.idTokens().length; i++) {
        record(base + c.idTokens()[i], c.idCategories()[i], c.idValues()[i]);
      }
      for (Embed e : c.embeds()) {
        embeds.add(new Embed(e.key(), base + e.tokenStart(), base + e.tokenEnd(), e.sharedFrom()));
      }
      return this;
    }

    public Composed build() {
      endPrivate();
      return new Composed(out.build(), Arrays.copyOf(ranges, rangeInts), Arrays.copyOf(ids, idCount),
          Arrays.copyOf(cats, idCount), Arrays.copyOf(values, idCount), List.copyOf(embeds));
    }
  }
}

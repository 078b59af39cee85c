package io.kvscope.samples.sim;

import io.kvscope.samples.kv.PagePool;
import io.kvscope.samples.random.Rng;
import io.kvscope.samples.text.Composed;
import io.kvscope.samples.text.IdCategory;
import io.kvscope.samples.text.TokenText;
import io.kvscope.samples.text.Writing;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes the reply of a request that decoded over stale pages. The model saw one placeholder
 * token and thousands of pages of other requests' KV; its output reads like a summary of "the
 * material" and reproduces a few salient pieces of it verbatim: spans of an earlier owner's
 * private prompt or generation, or a single identifier. Only content that really sits in the
 * reserved pages, contiguous in its owner's sequence, can be reproduced.
 */
final class LeakComposer {

  private static final long K_LEAK = Rng.key("leak");
  private static final double[] SOURCE_COUNT_WEIGHTS = {0.35, 0.33, 0.2, 0.12};
  private static final int MIN_SPAN = 20;
  private static final int MAX_SPAN = 200;
  /**
   * Older pages can survive in a sparse pool, but attention salience (and any analyzer's recency
   * window) favours the recent: pieces come from requests finished at most this long before.
   */
  static final long MAX_SOURCE_AGE_MS = 48 * 3_600_000L;

  private final MessageFactory messages;
  private final OwnerRegistry owners;

  LeakComposer(MessageFactory messages, OwnerRegistry owners) {
    this.messages = messages;
    this.owners = owners;
  }

  /** What one earlier owner left in the reservation: attributable intervals and identifiers. */
  private static final class Candidate {
    final RequestPlan plan;
    final List<int[]> intervals = new ArrayList<>();
    final List<Integer> ids = new ArrayList<>();
    int longest;
    boolean canary;

    Candidate(RequestPlan plan) {
      this.plan = plan;
    }

    boolean usable() {
      return longest >= MIN_SPAN || !ids.isEmpty();
    }
  }

  /** A chosen piece before its text is known: sequence positions [start, end). */
  private record Pick(Candidate from, int start, int end, boolean identifier, IdCategory category) {}

  /**
   * Composes the reply of stub {@code p} whose reservation is {@code reserved} in {@code pool};
   * pages {@code [1, N / pageSize)} of it are stale (page 0 got the placeholder, pages from
   * {@code N / pageSize} on receive the generation).
   */
  StubLeak compose(RequestPlan p, int[] reserved, PagePool pool) {
    Rng rng = Rng.derive(p.seed, K_LEAK);
    int staleEnd = (int) Math.min(reserved.length, p.promptTokens / pool.pageSize());
    List<Candidate> candidates = new ArrayList<>();
    int[] staleCounts = new int[2];
    collect(p, reserved, staleEnd, pool, candidates, staleCounts);
    List<Pick> picks = choose(p, candidates, rng);
    TokenText.Builder out = TokenText.builder(1024);
    List<Fragment> fragments = new ArrayList<>();
    Writing.filler(out, rng, rng.between(2, 4));
    RequestPlan loaded = null;
    Composed user = null;
    Composed reply = null;
    for (Pick pick : picks) {
      RequestPlan src = pick.from().plan;
      if (src != loaded) {
        user = messages.user(src);
        reply = messages.reply(src, user);
        if (reply.text().tokenCount() > src.outputTokens) {
          reply = reply.truncate(src.outputTokens);
        }
        loaded = src;
      }
      boolean prompt = pick.start() < src.promptTokens;
      TokenText text = prompt ? user.text() : reply.text();
      int base = (int) (prompt ? src.userOffset : src.promptTokens);
      int a = pick.start() - base;
      int b = pick.end() - base;
      if (!pick.identifier()) {
        while (a < b - MIN_SPAN && !text.isWord(a)) {
          a++;
        }
        if (!text.isWord(a) || b - a < MIN_SPAN) {
          continue;
        }
        Writing.fillerLead(out, rng);
      } else {
        Writing.fillerIdentifierLead(out, rng);
      }
      int rs = out.appendRange(text, a, b);
      int re = out.length();
      if (text.isWord(b - 1)) {
        out.punct(".");
      }
      fragments.add(new Fragment(src, prompt ? "prompt" : "generation", pick.identifier(), pick.category(), b - a,
          rs, re, prompt ? src.userMessageIndex : -1, text.contentStart(a), text.spanEnd(b)));
      if (rng.chance(0.6)) {
        Writing.filler(out, rng, rng.between(1, 2));
      }
    }
    Writing.filler(out, rng, fragments.isEmpty() ? rng.between(5, 12) : rng.between(1, 3));
    p.reply = Composed.plain(out.build());
    p.outputTokens = p.reply.text().tokenCount();
    return new StubLeak(p, reserved.length, staleCounts[0], staleCounts[1], List.copyOf(fragments));
  }

  private void collect(RequestPlan p, int[] reserved, int staleEnd, PagePool pool, List<Candidate> out,
      int[] staleCounts) {
    // (owner, offset) of every stale page, sorted so each owner's pages come together in sequence order.
    long[] keys = new long[Math.max(0, staleEnd - 1)];
    int n = 0;
    for (int i = 1; i < staleEnd; i++) {
      int page = reserved[i];
      int owner = pool.owner(page);
      if (owner != PagePool.NONE) {
        keys[n++] = ((long) owner << 32) | (pool.offset(page) & 0xFFFFFFFFL);
      }
    }
    keys = Arrays.copyOf(keys, n);
    Arrays.sort(keys);
    staleCounts[0] = n;
    int i = 0;
    while (i < n) {
      int owner = (int) (keys[i] >>> 32);
      int j = i;
      while (j < n && (int) (keys[j] >>> 32) == owner) {
        j++;
      }
      staleCounts[1]++;
      RequestPlan plan = owners.plan(owner);
      if (plan != null && plan.outcome == Outcome.SERVED && plan.sourceRanges != null && plan.arrival < p.arrival
          && p.decodeAllocAt - plan.decodeEnd <= MAX_SOURCE_AGE_MS) {
        Candidate c = candidate(plan, keys, i, j, pool.pageSize());
        if (c.usable()) {
          out.add(c);
        }
      }
      i = j;
    }
  }

  /** Merges an owner's surviving pages into covered intervals and intersects with its private ranges. */
  private static Candidate candidate(RequestPlan plan, long[] keys, int from, int to, int pageSize) {
    Candidate c = new Candidate(plan);
    long seqLen = plan.promptTokens + plan.outputTokens;
    List<int[]> covered = new ArrayList<>();
    int cs = -1;
    int ce = -1;
    for (int k = from; k < to; k++) {
      int off = (int) keys[k];
      int end = (int) Math.min(seqLen, (long) off + pageSize);
      if (cs >= 0 && off == ce) {
        ce = end;
      } else {
        if (cs >= 0) {
          covered.add(new int[] {cs, ce});
        }
        cs = off;
        ce = end;
      }
    }
    if (cs >= 0) {
      covered.add(new int[] {cs, ce});
    }
    int[] r = plan.sourceRanges;
    for (int[] cov : covered) {
      for (int k = 0; k < r.length; k += 2) {
        int s = Math.max(cov[0], r[k]);
        int e = Math.min(cov[1], r[k + 1]);
        if (e - s >= 1) {
          c.intervals.add(new int[] {s, e});
          c.longest = Math.max(c.longest, e - s);
        }
      }
      for (int k = 0; k < plan.idPositions.length; k++) {
        int pos = plan.idPositions[k];
        if (pos >= cov[0] && pos < cov[1]) {
          c.ids.add(k);
          if (plan.idCategories[k] == IdCategory.CANARY.ordinal()) {
            c.canary = true;
          }
        }
      }
    }
    return c;
  }

  private List<Pick> choose(RequestPlan p, List<Candidate> candidates, Rng rng) {
    List<Pick> picks = new ArrayList<>();
    if (candidates.isEmpty()) {
      return picks;
    }
    List<Candidate> pool = new ArrayList<>(candidates);
    List<Candidate> own = new ArrayList<>();
    for (Candidate c : candidates) {
      if (c.plan.tenant == p.tenant) {
        own.add(c);
      }
    }
    int count = Math.min(pool.size(), 1 + rng.weighted(SOURCE_COUNT_WEIGHTS));
    if (!own.isEmpty() && rng.chance(0.12)) {
      // Only the tenant's own earlier pages were salient: same-tenant reuse.
      pool = own;
      count = Math.min(own.size(), rng.between(1, 2));
    }
    for (int n = 0; n < count && !pool.isEmpty(); n++) {
      double[] w = new double[pool.size()];
      for (int i = 0; i < w.length; i++) {
        double ageHours = Math.max(0, p.decodeAllocAt - pool.get(i).plan.decodeEnd) / 3_600_000.0;
        w[i] = StrictMath.exp(-ageHours / 6.0) + 0.02;
        if (pool.get(i).canary) {
          // A marker line stands out in attention as it does to a reader.
          w[i] *= 4;
        }
      }
      Candidate c = pool.remove(rng.weighted(w));
      int pieces = rng.chance(0.2) ? 2 : 1;
      int[] used = null;
      for (int k = 0; k < pieces; k++) {
        Pick pick = pick(c, rng, used);
        if (pick != null) {
          picks.add(pick);
          used = new int[] {pick.start(), pick.end()};
        }
      }
    }
    return picks;
  }

  private static Pick pick(Candidate c, Rng rng, int[] avoid) {
    RequestPlan plan = c.plan;
    boolean hasIds = !c.ids.isEmpty();
    if (c.canary && rng.chance(0.7)) {
      for (int k : c.ids) {
        if (plan.idCategories[k] == IdCategory.CANARY.ordinal()) {
          return identifier(c, k, avoid);
        }
      }
    }
    if (hasIds && (c.longest < MIN_SPAN || rng.chance(0.25))) {
      return identifier(c, c.ids.get(rng.nextInt(c.ids.size())), avoid);
    }
    if (c.longest < MIN_SPAN) {
      return null;
    }
    List<int[]> longEnough = new ArrayList<>();
    double[] weights = new double[c.intervals.size()];
    for (int[] iv : c.intervals) {
      if (iv[1] - iv[0] >= MIN_SPAN) {
        weights[longEnough.size()] = iv[1] - iv[0];
        longEnough.add(iv);
      }
    }
    int[] iv = longEnough.get(rng.weighted(Arrays.copyOf(weights, longEnough.size())));
    int avail = iv[1] - iv[0];
    int len = (int) Math.round(rng.logNormal(55, 0.6));
    len = Math.max(MIN_SPAN, Math.min(Math.min(MAX_SPAN, avail), len));
    int start = iv[0] + rng.nextInt(avail - len + 1);
    if (avoid != null && start < avoid[1] && start + len > avoid[0]) {
      return null;
    }
    return new Pick(c, start, start + len, false, null);
  }

  private static Pick identifier(Candidate c, int k, int[] avoid) {
    int pos = c.plan.idPositions[k];
    if (avoid != null && pos >= avoid[0] && pos < avoid[1]) {
      return null;
    }
    return new Pick(c, pos, pos + 1, true, IdCategory.values()[c.plan.idCategories[k]]);
  }
}

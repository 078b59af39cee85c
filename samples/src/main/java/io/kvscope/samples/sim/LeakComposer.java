package io.kvscope.samples.sim;

import io.kvscope.samples.kv.PagePool;
import io.kvscope.samples.random.Rng;
import io.kvscope.samples.text.Composed;
import io.kvscope.samples.text.IdCategory;
import io.kvscope.samples.text.TokenText;
import io.kvscope.samples.text.Words;
import io.kvscope.samples.text.Writing;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes the reply of a request that decoded over stale pages. The model saw one placeholder
 * token and thousands of pages of other requests' KV; its output reads like a summary of "the
 * material" and reproduces a few salient pieces of it verbatim: passages of an earlier owner's
 * prompt (its system prompt, conversation history, question, pasted documents) or generation, or
 * a single identifier. Only content that really sits in the reserved pages, contiguous in its
 * owner's sequence and inside one text (a message, or one document or chunk copied into it), can
 * be reproduced. Real traffic repeats text, so a passage is often held by other requests too; the
 * truth lists them all ({@link PassageHolders}).
 */
final class LeakComposer {

  private static final long K_LEAK = Rng.key("leak");
  private static final long K_TRAP = Rng.key("leak-trap");
  private static final double[] SOURCE_COUNT_WEIGHTS = {0.35, 0.33, 0.2, 0.12};
  /**
   * The shortest passage reproduced, in words ({@link Words}). The world's value: the analysis's
   * floor is its own ({@code PassageRules.MIN_WORDS}), so the scorer's gate tests it against this.
   */
  static final int MIN_WORDS = 12;
  private static final int MAX_WORDS = 160;
  /** Tokens a piece needs to be worth trying for {@link #MIN_WORDS} words. */
  private static final int MIN_PIECE_TOKENS = 14;
  /**
   * Older pages can survive in a sparse pool, but attention salience (and any analyzer's recency
   * window) favours the recent: pieces come from requests finished at most this long before.
   */
  static final long MAX_SOURCE_AGE_MS = 48 * 3_600_000L;

  private final MessageFactory messages;
  private final OwnerRegistry owners;
  private final PassageHolders holders;
  private final Traps traps;

  LeakComposer(MessageFactory messages, OwnerRegistry owners, Traps traps) {
    this.messages = messages;
    this.owners = owners;
    this.holders = new PassageHolders(messages);
    this.traps = traps;
  }

  /** A stretch of one owner's sequence inside one text, with how salient that text is. */
  private record Piece(int start, int end, double salience) {}

  /** What one earlier owner left in the reservation: pieces of text and identifiers. */
  private static final class Candidate {
    final RequestPlan plan;
    final List<Piece> pieces = new ArrayList<>();
    final List<Integer> ids = new ArrayList<>();
    boolean canary;

    Candidate(RequestPlan plan) {
      this.plan = plan;
    }

    boolean usable() {
      return !pieces.isEmpty() || !ids.isEmpty();
    }
  }

  /** A chosen piece before its text is known: sequence positions [start, end). */
  private record Pick(Candidate from, int start, int end, boolean identifier, IdCategory category) {}

  /**
   * Composes the reply of stub {@code p} whose reservation is {@code reserved} in {@code pool};
   * pages {@code [1, N / pageSize)} of it are stale (page 0 got the placeholder, pages from
   * {@code N / pageSize} on receive the generation). {@code reach} is the decode engine run's log.
   */
  StubLeak compose(RequestPlan p, int[] reserved, PagePool pool, ReachLog reach) {
    Rng rng = Rng.derive(p.seed, K_LEAK);
    int staleEnd = (int) Math.min(reserved.length, p.promptTokens / pool.pageSize());
    List<Candidate> candidates = new ArrayList<>();
    int[] staleCounts = new int[2];
    collect(p, reserved, staleEnd, pool, candidates, staleCounts);
    List<Pick> picks = choose(p, candidates, rng);
    // The traps draw from their own stream, so that without them every reply is as it was.
    Rng trap = Rng.derive(p.seed, K_TRAP);
    boolean shortOnly = traps.on() && trap.chance(Traps.SHORT_ONLY_SHARE);
    TokenText.Builder out = TokenText.builder(1024);
    List<Fragment> fragments = new ArrayList<>();
    Writing.filler(out, rng, rng.between(2, 4));
    List<RequestPlan> within = reach.before(p);
    for (Pick pick : picks) {
      RequestPlan src = pick.from().plan;
      Located at = locate(src, pick.start());
      TokenText text = at.text();
      int a = pick.start() - at.offset();
      int b = pick.end() - at.offset();
      String notExpected = null;
      if (shortOnly && pick.identifier()) {
        continue; // a leak under the floor: only short runs, no identifier
      }
      if (!pick.identifier()) {
        int[] words = wordRange(text, a, b, rng);
        if (words == null) {
          continue;
        }
        a = words[0];
        b = shortOnly ? underFloor(text, words[0], words[1], trap.between(6, MIN_WORDS - 1)) : words[1];
        notExpected = shortOnly ? "below_floor" : null;
        Writing.fillerLead(out, rng);
      } else {
        if (pick.category() == IdCategory.CANARY && src.tenant.foreignCanary) {
          notExpected = "foreign_canary";
        }
        Writing.fillerIdentifierLead(out, rng);
      }
      int rs = out.appendRange(text, a, b);
      int re = out.length();
      if (text.isWord(b - 1)) {
        out.punct(".");
      }
      String passage = text.text().substring(text.contentStart(a), text.spanEnd(b));
      if ("below_floor".equals(notExpected) && Words.count(passage) >= MIN_WORDS) {
        notExpected = null; // one token held several words: the cut did not get under the floor
      }
      fragments.add(new Fragment(src, at.messageIndex() >= 0 ? "prompt" : "generation", pick.identifier(),
          pick.category(), b - a, Words.count(passage), rs, re, at.messageIndex(), text.contentStart(a),
          text.spanEnd(b), List.copyOf(holders.of(passage, src, within)), notExpected));
      if (rng.chance(0.6)) {
        Writing.filler(out, rng, rng.between(1, 2));
      }
    }
    Writing.filler(out, rng, fragments.isEmpty() ? rng.between(5, 12) : rng.between(1, 3));
    TokenText reply = out.build();
    if (traps.on() && !shortOnly && crossTenant(p, fragments) && trap.chance(Traps.OPENING_SHARE)) {
      reply = withOpening(p, reply, fragments, within, trap);
    }
    p.reply = Composed.plain(reply);
    p.outputTokens = p.reply.text().tokenCount();
    return new StubLeak(p, reserved.length, staleCounts[0], staleCounts[1], List.copyOf(fragments));
  }

  private static boolean crossTenant(RequestPlan p, List<Fragment> fragments) {
    return fragments.stream().anyMatch(f -> f.source().tenant != p.tenant);
  }

  /**
   * {@code body} after an opening that many tenants' texts hold but only one request within reach
   * held, not a source ({@link Traps#opening}): how a model opens an answer whatever it attended
   * over. The fragments' offsets move by the opening's length; the truth lists the opening apart.
   */
  private TokenText withOpening(RequestPlan p, TokenText body, List<Fragment> fragments, List<RequestPlan> within,
      Rng trap) {
    Set<RequestPlan> sources = new HashSet<>();
    fragments.forEach(f -> sources.add(f.source()));
    Traps.Opening opening = traps.opening(p, within, sources, holders, trap);
    if (opening == null) {
      return body;
    }
    TokenText.Builder out = TokenText.builder(body.tokenCount() + 32);
    int start = out.appendRange(opening.text(), 0, opening.end());
    int end = out.length();
    out.punct(".");
    int shift = out.appendRange(body, 0, body.tokenCount()) - body.contentStart(0);
    for (int i = 0; i < fragments.size(); i++) {
      Fragment f = fragments.get(i);
      fragments.set(i, new Fragment(f.source(), f.part(), f.identifier(), f.category(), f.matchedTokens(), f.words(),
          f.responseStart() + shift, f.responseEnd() + shift, f.sourceMessageIndex(), f.sourceStart(), f.sourceEnd(),
          f.holders(), f.notExpected()));
    }
    traps.opened(p, opening, start, end, Words.count(opening.text().slice(0, opening.end())));
    return out.build();
  }

  /** The end of the first {@code words} words from word token {@code start}, before {@code end}: a run under the floor. */
  private static int underFloor(TokenText text, int start, int end, int words) {
    for (int e = start + 1; e < end; e++) {
      if (text.isWord(e - 1) && Words.count(text.slice(start, e)) >= words) {
        return e;
      }
    }
    return end;
  }

  /**
   * A run of {@link #MIN_WORDS} to {@link #MAX_WORDS} words inside tokens {@code [a, b)}, starting
   * and ending on a word token: {@code [start, end)}, or null when the piece is too short.
   */
  private static int[] wordRange(TokenText text, int a, int b, Rng rng) {
    List<Integer> wordTokens = new ArrayList<>();
    for (int i = a; i < b; i++) {
      if (text.isWord(i)) {
        wordTokens.add(i);
      }
    }
    int want = (int) Math.max(MIN_WORDS, Math.min(MAX_WORDS, Math.round(rng.logNormal(28, 0.7))));
    int take = Math.min(want, wordTokens.size());
    if (take < MIN_WORDS) {
      return null;
    }
    int first = rng.nextInt(wordTokens.size() - take + 1);
    int start = wordTokens.get(first);
    int end = wordTokens.get(first + take - 1) + 1;
    // Word tokens are not always one word each (code, e-mail addresses): make sure of the minimum.
    while (Words.count(text.text().substring(text.contentStart(start), text.spanEnd(end))) < MIN_WORDS) {
      if (first + take < wordTokens.size()) {
        end = wordTokens.get(first + take++) + 1;
      } else {
        return null;
      }
    }
    return new int[] {start, end};
  }

  /** The text holding sequence position {@code pos} of {@code plan}, and where it starts. */
  private record Located(TokenText text, int offset, int messageIndex) {}

  private Located locate(RequestPlan plan, int pos) {
    if (pos >= plan.promptTokens) {
      Composed user = messages.user(plan);
      Composed reply = messages.reply(plan, user).truncate(plan.outputTokens);
      return new Located(reply.text(), (int) plan.promptTokens, -1);
    }
    int i = plan.messageStarts.length - 1;
    while (i > 0 && plan.messageStarts[i] > pos) {
      i--;
    }
    return new Located(messageText(plan.promptSources[i]), plan.messageStarts[i], i);
  }

  private TokenText messageText(MessageSource source) {
    if (source.sharedKey() >= 0) {
      return messages.shared().byKey(source.sharedKey());
    }
    Composed user = messages.user(source.owner());
    return source.reply() ? messages.reply(source.owner(), user).truncate(source.owner().outputTokens).text()
        : user.text();
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
      if (plan != null && plan.outcome == Outcome.SERVED && plan.promptSources != null && plan.arrival < p.arrival
          && p.decodeAllocAt - plan.decodeEnd <= MAX_SOURCE_AGE_MS) {
        Candidate c = candidate(plan, keys, i, j, pool.pageSize());
        if (c.usable()) {
          out.add(c);
        }
      }
      i = j;
    }
  }

  /** Merges an owner's surviving pages into covered intervals and cuts them into pieces of one text each. */
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
    List<Piece> texts = texts(plan);
    for (int[] cov : covered) {
      for (Piece t : texts) {
        int s = Math.max(cov[0], t.start());
        int e = Math.min(cov[1], t.end());
        if (e - s >= MIN_PIECE_TOKENS) {
          c.pieces.add(new Piece(s, e, t.salience()));
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

  /**
   * The owner's sequence cut into texts: each prompt message and the reply, and inside the user
   * message and the reply each copied shared text apart from what is around it. A model echoes
   * what was asked and answered more readily than a system prompt or an old turn.
   */
  private static List<Piece> texts(RequestPlan plan) {
    List<Piece> texts = new ArrayList<>();
    int messagesEnd = plan.messageStarts.length - 1; // the last start is the user message's
    for (int i = 0; i < messagesEnd; i++) {
      boolean system = plan.promptSources[i].sharedKey() >= 0;
      texts.add(new Piece(plan.messageStarts[i], plan.messageStarts[i + 1], system ? 0.3 : 0.6));
    }
    split(texts, (int) plan.userOffset, (int) plan.promptTokens, plan.userEmbeds);
    split(texts, (int) plan.promptTokens, (int) (plan.promptTokens + plan.outputTokens), plan.replyEmbeds);
    return texts;
  }

  private static void split(List<Piece> out, int start, int end, List<Composed.Embed> embeds) {
    int cursor = start;
    for (Composed.Embed e : embeds == null ? List.<Composed.Embed>of() : embeds) {
      int es = start + e.tokenStart();
      int ee = Math.min(end, start + e.tokenEnd());
      if (es > cursor) {
        out.add(new Piece(cursor, es, 1.0));
      }
      if (ee > es) {
        out.add(new Piece(es, ee, 0.8));
      }
      cursor = Math.max(cursor, ee);
    }
    if (end > cursor) {
      out.add(new Piece(cursor, end, 1.0));
    }
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
    if (hasIds && (c.pieces.isEmpty() || rng.chance(0.25))) {
      return identifier(c, c.ids.get(rng.nextInt(c.ids.size())), avoid);
    }
    if (c.pieces.isEmpty()) {
      return null;
    }
    double[] weights = new double[c.pieces.size()];
    for (int i = 0; i < weights.length; i++) {
      Piece piece = c.pieces.get(i);
      weights[i] = (piece.end() - piece.start()) * piece.salience();
    }
    Piece piece = c.pieces.get(rng.weighted(weights));
    if (avoid != null && piece.start() < avoid[1] && piece.end() > avoid[0]) {
      return null;
    }
    return new Pick(c, piece.start(), piece.end(), false, null);
  }

  private static Pick identifier(Candidate c, int k, int[] avoid) {
    int pos = c.plan.idPositions[k];
    if (avoid != null && pos >= avoid[0] && pos < avoid[1]) {
      return null;
    }
    return new Pick(c, pos, pos + 1, true, IdCategory.values()[c.plan.idCategories[k]]);
  }
}

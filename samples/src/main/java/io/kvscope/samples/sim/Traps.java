package io.kvscope.samples.sim;

import io.kvscope.samples.random.Rng;
import io.kvscope.samples.text.Composed;
import io.kvscope.samples.text.SharedTexts;
import io.kvscope.samples.text.TokenText;
import io.kvscope.samples.text.Words;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The situations that fooled a text-reading analysis on incidents it had never seen, made on
 * purpose ({@code GeneratorOptions.traps}): popular questions asked again after pasted text or in
 * near-duplicate words and answered as another tenant's bare question was (served normally, not
 * leaks), stub replies that open with phrasing many tenants hold but only one request within reach
 * held, leaks shorter than the 12-word floor, and canaries in another issuer's format. Off, it draws
 * nothing and changes nothing, so the incident stays byte-identical.
 */
final class Traps {

  /** Share of popular questions asked again as a trap, when another tenant asked one bare before. */
  private static final double RETYPE_SHARE = 0.2;
  /** Share of canary-planting tenants whose canaries are another issuer's. */
  private static final double FOREIGN_CANARY_SHARE = 0.5;
  /** Share of stubs whose every passage is cut under the floor and whose identifiers are not echoed. */
  static final double SHORT_ONLY_SHARE = 0.2;
  /** Share of cross-tenant stubs whose reply opens with a common passage, when one is found. */
  static final double OPENING_SHARE = 0.8;
  /** A text is common when at least this many tenants held its opening across the incident so far. */
  static final int COMMON_TENANTS = 6;
  private static final int BARE_ASKS_KEPT = 256;
  private static final int OPENING_TRIES = 16;
  private static final long K_TRAPS = Rng.key("traps");

  /** A popular question asked again as a trap: its kind and the bare ask it repeats. */
  record Retyped(RequestKind kind, RequestPlan bare) {}

  /** A stub reply's common opening: tokens {@code [0, end)} of {@code text}, and its one holder within reach. */
  record Opening(TokenText text, int end, RequestPlan holder, int tenants) {}

  private final boolean on;
  private final SharedTexts shared;
  private final Rng rng;
  private final List<RequestPlan> bareAsks = new ArrayList<>();
  /** Tenants that held each shared text from its start (a copied opening of 24 tokens or more). */
  private final Map<Integer, Set<Tenant>> openingTenants = new TreeMap<>();
  private final List<Decoy> decoys = new ArrayList<>();

  Traps(boolean on, long seed, SharedTexts shared, List<Tenant> tenants) {
    this.on = on;
    this.shared = shared;
    this.rng = Rng.derive(seed, K_TRAPS);
    if (on) {
      for (Tenant t : tenants) {
        t.foreignCanary = t.canaryUser && rng.chance(FOREIGN_CANARY_SHARE);
      }
    }
  }

  boolean on() {
    return on;
  }

  List<Decoy> decoys() {
    return List.copyOf(decoys);
  }

  /** A popular question {@code tenant} is about to ask, asked instead as a trap; null for none. */
  Retyped retype(Tenant tenant, RequestKind kind) {
    if (!on || kind != RequestKind.POPULAR || bareAsks.isEmpty() || !rng.chance(RETYPE_SHARE)) {
      return null;
    }
    List<RequestPlan> others = bareAsks.stream().filter(b -> b.tenant != tenant).toList();
    if (others.isEmpty()) {
      return null;
    }
    RequestPlan bare = others.get(rng.nextInt(others.size()));
    return new Retyped(rng.chance(0.5) ? RequestKind.PASTED_QUESTION : RequestKind.NEAR_DUPLICATE, bare);
  }

  /** {@code p} was served (its text still at hand): remember what later traps build on. */
  void served(RequestPlan p) {
    if (!on) {
      return;
    }
    if (p.kind == RequestKind.POPULAR && p.questionTurn == 0) {
      bareAsks.add(p);
      if (bareAsks.size() > BARE_ASKS_KEPT) {
        bareAsks.removeFirst();
      }
    }
    for (List<Composed.Embed> embeds : List.of(p.userEmbeds, p.replyEmbeds)) {
      for (Composed.Embed e : embeds) {
        if (e.sharedFrom() == 0 && e.tokenEnd() - e.tokenStart() >= 24) {
          openingTenants.computeIfAbsent(e.key(), k -> new HashSet<>()).add(p.tenant);
        }
      }
    }
    if (p.answeredAlike != null) {
      String reply = p.reply.text().text();
      decoys.add(new Decoy(p, p.kind == RequestKind.PASTED_QUESTION ? "pasted_question" : "near_duplicate", 0,
          reply.length(), Words.count(reply), List.of(p.answeredAlike), 0));
    }
  }

  /**
   * The opening (12 to 20 words) of a shared text at least {@link #COMMON_TENANTS} tenants held,
   * that exactly one request of {@code within} held, of another tenant than {@code stub}'s and none of
   * {@code sources}; null when none of a few tries is.
   */
  Opening opening(RequestPlan stub, List<RequestPlan> within, Set<RequestPlan> sources, PassageHolders holders,
      Rng r) {
    List<Map.Entry<Integer, Set<Tenant>>> common = openingTenants.entrySet().stream()
        .filter(e -> e.getValue().size() >= COMMON_TENANTS).toList();
    for (int attempt = 0; attempt < OPENING_TRIES && !common.isEmpty(); attempt++) {
      Map.Entry<Integer, Set<Tenant>> pick = common.get(r.nextInt(common.size()));
      TokenText text = shared.byKey(pick.getKey());
      int end = openingEnd(text, r.between(12, 20));
      if (end < 0) {
        continue;
      }
      List<RequestPlan> held = holders.of(text.slice(0, end), stub, within);
      if (held.size() == 1 && held.getFirst().tenant != stub.tenant && !sources.contains(held.getFirst())) {
        return new Opening(text, end, held.getFirst(), pick.getValue().size());
      }
    }
    return null;
  }

  /** The token end of the first {@code words} words of {@code text}, ending on a word; -1 when it is shorter. */
  private static int openingEnd(TokenText text, int words) {
    for (int end = 1; end <= text.tokenCount(); end++) {
      if (text.isWord(end - 1) && Words.count(text.slice(0, end)) >= words) {
        return text.isWord(0) ? end : -1;
      }
    }
    return -1;
  }

  /** A stub reply's opening was written: the truth lists it. */
  void opened(RequestPlan stub, Opening o, int responseStart, int responseEnd, int words) {
    decoys.add(new Decoy(stub, "common_opening", responseStart, responseEnd, words, List.of(o.holder()), o.tenants()));
  }
}

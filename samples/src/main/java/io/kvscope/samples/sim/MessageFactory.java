package io.kvscope.samples.sim;

import io.kvscope.samples.random.Rng;
import io.kvscope.samples.text.Composed;
import io.kvscope.samples.text.RequestIds;
import io.kvscope.samples.text.SharedTexts;
import io.kvscope.samples.text.TokenText;
import io.kvscope.samples.text.Voice;
import io.kvscope.samples.text.Writing;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a request's messages and reply. The user message and the reply are pure functions of
 * the plan's immutable fields (seed, kind, tenant, identifier block, targets), so they can be
 * rebuilt exactly when the request's stale pages are later quoted.
 */
final class MessageFactory {

  private static final long K_USER = Rng.key("user");
  private static final long K_IDS = Rng.key("ids");
  private static final long K_REPLY = Rng.key("reply");

  private final SharedTexts shared;

  MessageFactory(SharedTexts shared) {
    this.shared = shared;
  }

  /** Builds the prompt messages and fills the prompt's counts. */
  void composePrompt(RequestPlan p) {
    Composed user = user(p);
    List<TokenText> msgs = new ArrayList<>(8);
    List<String> roles = new ArrayList<>(8);
    if (p.systemChoice == -2) {
      msgs.add(p.tenant.systemPrompt);
      roles.add("system");
    } else if (p.systemChoice >= 0) {
      msgs.add(shared.systemPrompts().get(p.systemChoice));
      roles.add("system");
    }
    if (p.kind == RequestKind.FOLLOWUP) {
      List<TokenText> h = p.conversation.history;
      for (int i = 0; i < h.size(); i++) {
        msgs.add(h.get(i));
        roles.add(i % 2 == 0 ? "user" : "assistant");
      }
    }
    long offset = 0;
    for (TokenText m : msgs) {
      offset += m.tokenCount();
    }
    p.userMessageIndex = msgs.size();
    p.userOffset = offset;
    msgs.add(user.text());
    roles.add("user");
    p.messages = msgs.toArray(TokenText[]::new);
    p.roles = roles.toArray(String[]::new);
    p.user = user;
    long tokens = 0;
    long chars = 0;
    for (TokenText m : p.messages) {
      tokens += m.tokenCount();
      chars += m.length();
    }
    p.promptTokens = tokens;
    p.promptChars = chars;
  }

  /** Builds the normal reply and records which sequence positions are attributable to the request. */
  void composeReply(RequestPlan p) {
    Composed reply = reply(p, p.user);
    p.finishReason = "stop";
    if (reply.text().tokenCount() > p.maxTokens) {
      reply = reply.truncate(p.maxTokens);
      p.finishReason = "length";
    }
    p.reply = reply;
    p.outputTokens = reply.text().tokenCount();
    int[] ur = p.user.privateRanges();
    int[] rr = reply.privateRanges();
    int[] ranges = new int[ur.length + rr.length];
    for (int i = 0; i < ur.length; i++) {
      ranges[i] = (int) (ur[i] + p.userOffset);
    }
    for (int i = 0; i < rr.length; i++) {
      ranges[ur.length + i] = (int) (rr[i] + p.promptTokens);
    }
    p.sourceRanges = ranges;
    int n = 0;
    for (var c : p.user.idCategories()) {
      if (c.requestUnique()) {
        n++;
      }
    }
    p.idPositions = new int[n];
    p.idCategories = new int[n];
    int j = 0;
    for (int i = 0; i < p.user.idTokens().length; i++) {
      if (p.user.idCategories()[i].requestUnique()) {
        p.idPositions[j] = (int) (p.user.idTokens()[i] + p.userOffset);
        p.idCategories[j] = p.user.idCategories()[i].ordinal();
        j++;
      }
    }
  }

  /** The user's new message. */
  Composed user(RequestPlan p) {
    Rng rng = Rng.derive(p.seed, K_USER);
    RequestIds ids = new RequestIds(p.tenant.voice, p.idCounterBase, Rng.derive(p.seed, K_IDS));
    int expected = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(64, p.targetPromptTokens + 64));
    Composed.Builder cb = new Composed.Builder(expected);
    Voice voice = Voice.of(p.tenant.voice, ids, cb);
    boolean canary = p.tenant.canaryUser && rng.chance(0.45);
    switch (p.kind) {
      case CHAT -> Writing.privateProse(cb, voice, rng, (int) p.targetPromptTokens, canary);
      case FOLLOWUP -> Writing.privateProse(cb, voice, rng, (int) p.targetPromptTokens, false);
      case DOC_QA -> {
        Writing.privateProse(cb, voice, rng, rng.between(30, 120), canary);
        int docs = rng.between(1, 3);
        for (int i = 0; i < docs; i++) {
          cb.out().paragraph();
          cb.out().append(rng.pick(shared.boilerplate()));
        }
        cb.out().paragraph();
        Writing.privateProse(cb, voice, rng, rng.between(15, 60), false);
      }
      case POPULAR -> cb.out().append(shared.popular().get(p.popularIndex).question());
      case LONG, OVER_LENGTH -> longPrompt(p, cb, ids, rng, canary);
    }
    return cb.build();
  }

  /**
   * A private preamble, then public manuals each headed by a request-specific attachment
   * reference (so the paste is attributable), then a private closing question; about
   * {@code targetPromptTokens} tokens in all.
   */
  private void longPrompt(RequestPlan p, Composed.Builder cb, RequestIds ids, Rng rng, boolean canary) {
    Voice voice = Voice.of(p.tenant.voice, ids, cb);
    Writing.privateProse(cb, voice, rng, rng.between(80, 300), canary);
    Composed.Builder closingBuilder = new Composed.Builder(256);
    Writing.privateProse(closingBuilder, Voice.of(p.tenant.voice, ids, closingBuilder), rng,
        rng.between(40, 120), false);
    Composed closing = closingBuilder.build();
    String ref = "REF-" + rng.hex(8).toUpperCase(java.util.Locale.ROOT);
    TokenText.Builder out = cb.out();
    List<TokenText> corpus = shared.corpus();
    long budget = p.targetPromptTokens - closing.text().tokenCount() - 1;
    int n = 0;
    while (true) {
      long remaining = budget - out.tokenCount();
      if (remaining < 8) {
        break;
      }
      TokenText doc = corpus.get(rng.nextInt(corpus.size()));
      n++;
      out.paragraph();
      out.word("Attachment").word(Integer.toString(n)).punct(":").word(ref + "-" + n);
      out.paragraph();
      remaining = budget - out.tokenCount();
      if (doc.tokenCount() <= remaining) {
        out.append(doc);
      } else {
        out.appendRange(doc, 0, (int) Math.max(1, remaining));
        break;
      }
    }
    out.paragraph();
    cb.append(closing);
  }

  /** The reply a healthy engine gives. */
  Composed reply(RequestPlan p, Composed user) {
    if (p.kind == RequestKind.POPULAR) {
      return Composed.plain(shared.popular().get(p.popularIndex).answer());
    }
    Rng rng = Rng.derive(p.seed, K_REPLY);
    Composed.Builder cb = new Composed.Builder(p.targetOutputTokens + 32);
    Voice voice = Voice.of(p.tenant.voice);
    int target = p.targetOutputTokens;
    boolean echo = rng.chance(0.3);
    cb.beginPrivate();
    if (echo) {
      int[] span = echoSpan(user, rng);
      if (span != null) {
        Writing.replyProse(cb.out(), voice, rng, Math.max(1, target / 3));
        cb.endPrivate();
        cb.out().word("You").word("wrote").punct(":");
        cb.out().appendRange(user.text(), span[0], span[1]);
        cb.beginPrivate();
      }
    }
    int rest = target - cb.out().tokenCount();
    if (rest > 0) {
      Writing.replyProse(cb.out(), voice, rng, rest);
    }
    cb.endPrivate();
    return cb.build();
  }

  /** A 12-40 token span of the user's private prose starting at a word, or null. */
  private static int[] echoSpan(Composed user, Rng rng) {
    int[] r = user.privateRanges();
    for (int attempt = 0; attempt < 4 && r.length > 0; attempt++) {
      int i = 2 * rng.nextInt(r.length / 2);
      int len = rng.between(12, 40);
      if (r[i + 1] - r[i] < len) {
        continue;
      }
      int start = r[i] + rng.nextInt(r[i + 1] - r[i] - len + 1);
      if (user.text().isWord(start)) {
        return new int[] {start, start + len};
      }
    }
    return null;
  }
}

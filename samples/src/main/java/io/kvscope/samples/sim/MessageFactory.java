package io.kvscope.samples.sim;

import io.kvscope.samples.random.Rng;
import io.kvscope.samples.text.Composed;
import io.kvscope.samples.text.Question;
import io.kvscope.samples.text.RequestIds;
import io.kvscope.samples.text.SharedTexts;
import io.kvscope.samples.text.TokenText;
import io.kvscope.samples.text.Voice;
import io.kvscope.samples.text.Writing;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a request's messages and reply. The user message and the reply are pure functions of
 * the plan's immutable fields (seed, kind, tenant, identifier block, targets, question, model), so
 * they can be rebuilt exactly when the request's stale pages are later quoted. Each message also
 * says where it came from ({@link MessageSource}), for the truth's list of everyone who held a
 * leaked passage.
 */
final class MessageFactory {

  private static final long K_USER = Rng.key("user");
  private static final long K_IDS = Rng.key("ids");
  private static final long K_REPLY = Rng.key("reply");

  private final SharedTexts shared;

  MessageFactory(SharedTexts shared) {
    this.shared = shared;
  }

  SharedTexts shared() {
    return shared;
  }

  /** Builds the prompt messages and fills the prompt's counts. */
  void composePrompt(RequestPlan p) {
    Composed user = user(p);
    List<TokenText> msgs = new ArrayList<>(8);
    List<String> roles = new ArrayList<>(8);
    List<MessageSource> sources = new ArrayList<>(8);
    TokenText system = systemPrompt(p);
    if (system != null) {
      msgs.add(system);
      roles.add("system");
      sources.add(p.systemChoice == -2 && p.templateIndex < 0
          ? MessageSource.shared(p.tenant.systemPromptKey) : MessageSource.shared(shared.keyOf(system)));
    }
    if (p.kind == RequestKind.FOLLOWUP) {
      List<TokenText> h = p.conversation.history;
      for (int i = 0; i < h.size(); i++) {
        msgs.add(h.get(i));
        roles.add(i % 2 == 0 ? "user" : "assistant");
        sources.add(p.conversation.historySources.get(i));
      }
    }
    int[] starts = new int[msgs.size() + 1];
    long offset = 0;
    for (int i = 0; i < msgs.size(); i++) {
      starts[i] = (int) offset;
      offset += msgs.get(i).tokenCount();
    }
    starts[msgs.size()] = (int) offset;
    p.userMessageIndex = msgs.size();
    p.userOffset = offset;
    msgs.add(user.text());
    roles.add("user");
    sources.add(MessageSource.user(p));
    p.messages = msgs.toArray(TokenText[]::new);
    p.roles = roles.toArray(String[]::new);
    p.messageStarts = starts;
    p.promptSources = sources.toArray(MessageSource[]::new);
    p.user = user;
    p.userEmbeds = user.embeds();
    long tokens = 0;
    long chars = 0;
    for (TokenText m : p.messages) {
      tokens += m.tokenCount();
      chars += m.length();
    }
    p.promptTokens = tokens;
    p.promptChars = chars;
  }

  /** The system message: an agent template, the tenant's own prompt, a public one, or none. */
  TokenText systemPrompt(RequestPlan p) {
    if (p.templateIndex >= 0) {
      return shared.agentTemplates().get(p.templateIndex);
    }
    if (p.systemChoice == -2) {
      return p.tenant.systemPrompt;
    }
    return p.systemChoice >= 0 ? shared.systemPrompts().get(p.systemChoice) : null;
  }

  /** Builds the normal reply and records where its identifiers are. */
  void composeReply(RequestPlan p) {
    Composed reply = reply(p, p.user);
    p.finishReason = "stop";
    if (reply.text().tokenCount() > p.maxTokens) {
      reply = reply.truncate(p.maxTokens);
      p.finishReason = "length";
    }
    p.reply = reply;
    p.replyEmbeds = reply.embeds();
    p.outputTokens = reply.text().tokenCount();
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
    RequestIds ids = new RequestIds(p.tenant.voice, p.idCounterBase, Rng.derive(p.seed, K_IDS), p.tenant.foreignCanary);
    int expected = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(64, p.targetPromptTokens + 64));
    Composed.Builder cb = new Composed.Builder(expected);
    Voice voice = Voice.of(p.tenant.voice, ids, cb);
    boolean canary = p.tenant.canaryUser && rng.chance(0.45);
    switch (p.kind) {
      case CHAT -> Writing.privateProse(cb, voice, rng, (int) p.targetPromptTokens, canary);
      case FOLLOWUP -> {
        if (p.questionIndex >= 0) {
          embedWhole(cb, question(p).turns().get(p.questionTurn));
        } else {
          Writing.privateProse(cb, voice, rng, (int) p.targetPromptTokens, false);
        }
      }
      case DOC_QA -> {
        Writing.privateProse(cb, voice, rng, rng.between(30, 120), canary);
        int docs = rng.between(1, 3);
        for (int i = 0; i < docs; i++) {
          cb.out().paragraph();
          embedWhole(cb, rng.chance(0.5) ? rng.pick(shared.boilerplate()) : rng.pick(shared.documents()));
        }
        cb.out().paragraph();
        Writing.privateProse(cb, voice, rng, rng.between(15, 60), false);
      }
      case POPULAR -> embedWhole(cb, question(p).turns().getFirst());
      case RAG -> {
        cb.out().word("Context").punct(":");
        int chunks = rng.between(2, 4);
        for (int i = 0; i < chunks; i++) {
          cb.out().paragraph();
          embedWhole(cb, rng.pick(shared.chunks()));
        }
        cb.out().paragraph();
        cb.out().word("Question").punct(":");
        embedWhole(cb, question(p).turns().getFirst());
      }
      case LONG, OVER_LENGTH -> longPrompt(p, cb, ids, rng, canary);
      case PASTED_QUESTION -> {
        embedWhole(cb, rng.chance(0.5) ? rng.pick(shared.boilerplate()) : rng.pick(shared.documents()));
        cb.out().paragraph();
        cb.out().word("Question").punct(":");
        embedWhole(cb, question(p).turns().getFirst());
      }
      case NEAR_DUPLICATE -> nearDuplicate(cb, question(p).turns().getFirst(), rng);
    }
    return cb.build();
  }

  /** Endings a near-duplicate question puts in place of the last words of the one others asked. */
  private static final String[][] OTHER_ENDINGS = {{"quickly"}, {"in", "practice"}, {"for", "beginners"},
      {"step", "by", "step"}, {"without", "a", "library"}, {"on", "Windows"}, {"in", "production"},
      {"with", "an", "example"}, {"briefly"}, {"in", "simple", "terms"}};

  /**
   * {@code question} with its last one to three words replaced by other words (its closing
   * punctuation kept): the same question to a reader, and the model gives it the same answer.
   */
  private void nearDuplicate(Composed.Builder cb, TokenText question, Rng rng) {
    List<Integer> words = new ArrayList<>();
    for (int i = 0; i < question.tokenCount(); i++) {
      if (question.isWord(i)) {
        words.add(i);
      }
    }
    int replaced = Math.min(rng.between(1, 3), Math.max(1, words.size() / 3));
    int last = words.isEmpty() ? question.tokenCount() - 1 : words.getLast();
    int cut = words.size() <= replaced ? Math.min(1, question.tokenCount()) : words.get(words.size() - replaced);
    cb.embed(shared.keyOf(question), question, 0, cut);
    int ending = rng.nextInt(OTHER_ENDINGS.length);
    String replacedWords = cut <= last ? question.slice(cut, last + 1) : "";
    if (String.join(" ", OTHER_ENDINGS[ending]).equals(replacedWords)) {
      ending = (ending + 1) % OTHER_ENDINGS.length; // the same words: another ending, so that the question differs
    }
    for (String w : OTHER_ENDINGS[ending]) {
      cb.out().word(w);
    }
    for (int i = last + 1; i < question.tokenCount(); i++) {
      String mark = question.token(i);
      if (!mark.isBlank()) {
        cb.out().punct(mark);
      }
    }
  }

  private void embedWhole(Composed.Builder cb, TokenText text) {
    cb.embed(shared.keyOf(text), text, 0, text.tokenCount());
  }

  Question question(RequestPlan p) {
    return shared.questions().get(p.questionIndex);
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
    List<TokenText> manuals = shared.manuals();
    long budget = p.targetPromptTokens - closing.text().tokenCount() - 1;
    int n = 0;
    while (true) {
      long remaining = budget - out.tokenCount();
      if (remaining < 8) {
        break;
      }
      TokenText doc = manuals.get(rng.nextInt(manuals.size()));
      n++;
      out.paragraph();
      out.word("Attachment").word(Integer.toString(n)).punct(":").word(ref + "-" + n);
      out.paragraph();
      remaining = budget - out.tokenCount();
      if (doc.tokenCount() <= remaining) {
        cb.embed(shared.keyOf(doc), doc, 0, doc.tokenCount());
      } else {
        cb.embed(shared.keyOf(doc), doc, 0, (int) Math.max(1, remaining));
        break;
      }
    }
    out.paragraph();
    cb.append(closing);
  }

  /** The reply a healthy engine gives. */
  Composed reply(RequestPlan p, Composed user) {
    if (p.questionIndex >= 0 && p.kind != RequestKind.RAG) {
      // The model answers a question the same way whatever the system prompt or tenant.
      TokenText answer = question(p).answer(p.model, p.questionTurn);
      Composed.Builder cb = new Composed.Builder(answer.tokenCount());
      embedWhole(cb, answer);
      return cb.build();
    }
    Rng rng = Rng.derive(p.seed, K_REPLY);
    Composed.Builder cb = new Composed.Builder(p.targetOutputTokens + 32);
    Voice voice = Voice.of(p.tenant.voice);
    int target = p.targetOutputTokens;
    cb.beginPrivate();
    if (rng.chance(0.3)) {
      int[] span = echoSpan(user, rng);
      if (span != null) {
        Writing.replyProse(cb.out(), voice, rng, Math.max(1, target / 3));
        cb.endPrivate();
        cb.out().word("You").word("wrote").punct(":");
        cb.out().appendRange(user.text(), span[0], span[1]);
        cb.beginPrivate();
      }
    }
    if (!user.embeds().isEmpty() && (p.kind == RequestKind.RAG || p.kind == RequestKind.DOC_QA) && rng.chance(0.5)) {
      // Quotes a passage of a document or chunk it was given.
      Composed.Embed embed = rng.pick(user.embeds());
      TokenText text = shared.byKey(embed.key());
      int length = embed.tokenEnd() - embed.tokenStart();
      int quote = Math.min(length, rng.between(12, 40));
      int from = embed.sharedFrom() + rng.nextInt(length - quote + 1);
      while (from < embed.sharedFrom() + length - quote && !text.isWord(from)) {
        from++; // a quote starts at a word, never at a paragraph break
      }
      Writing.replyProse(cb.out(), voice, rng, Math.max(1, target / 4));
      cb.endPrivate();
      if (text.isWord(from)) {
        cb.out().word("The").word("material").word("says").punct(":");
        cb.embed(embed.key(), text, from, from + quote);
      }
      cb.beginPrivate();
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

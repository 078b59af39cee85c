package io.kvscope.samples.sim;

import io.kvscope.samples.text.Composed;
import io.kvscope.samples.text.SharedTexts;
import io.kvscope.samples.text.TokenText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every request within a stub's reach that held a leaked passage word for word: real traffic
 * repeats popular answers, system prompts, documents and chunks across tenants, so the request
 * whose page a passage came from is often one of several that held it.
 *
 * <p>A request holds the passage when one of its messages (system prompt, history, user message,
 * reply) is, or copies, a shared text containing it at a copied place, or when it re-sent the
 * message of the source's conversation that contains it. Two different private texts sharing a
 * passage of at least 12 words by chance is not looked for (prose is drawn word by word).
 */
final class PassageHolders {

  private final MessageFactory messages;
  private final SharedTexts shared;
  private final Map<MessageSource, String> rebuilt = new HashMap<>();

  PassageHolders(MessageFactory messages) {
    this.messages = messages;
    this.shared = messages.shared();
  }

  /** Requests of {@code reach} holding {@code passage}; {@code source} is among them. */
  List<RequestPlan> of(String passage, RequestPlan source, List<RequestPlan> reach) {
    Map<Integer, List<Integer>> occurrences = new HashMap<>();
    for (int key = 0; key < shared.size(); key++) {
      String text = shared.byKey(key).text();
      for (int at = text.indexOf(passage); at >= 0; at = text.indexOf(passage, at + 1)) {
        occurrences.computeIfAbsent(key, k -> new ArrayList<>()).add(at);
      }
    }
    Set<RequestPlan> family = new HashSet<>(source.conversation == null ? List.of(source) : source.conversation.turns);
    family.add(source);
    List<RequestPlan> holders = new ArrayList<>();
    for (RequestPlan candidate : reach) {
      if (holds(candidate, passage, occurrences, family)) {
        holders.add(candidate);
      }
    }
    rebuilt.clear();
    return holders;
  }

  private boolean holds(RequestPlan candidate, String passage, Map<Integer, List<Integer>> occurrences,
      Set<RequestPlan> family) {
    List<MessageSource> sources = new ArrayList<>(List.of(candidate.promptSources));
    sources.add(MessageSource.reply(candidate));
    for (MessageSource message : sources) {
      if (message.sharedKey() >= 0) {
        if (occurrences.containsKey(message.sharedKey())) {
          return true;
        }
        continue;
      }
      for (Composed.Embed embed : message.embeds()) {
        List<Integer> at = occurrences.get(embed.key());
        if (at != null) {
          TokenText text = shared.byKey(embed.key());
          int from = embed.sharedCharStart(text);
          int to = embed.sharedCharEnd(text);
          if (at.stream().anyMatch(q -> q >= from && q + passage.length() <= to)) {
            return true;
          }
        }
      }
      if (family.contains(message.owner()) && text(message).contains(passage)) {
        return true;
      }
    }
    return false;
  }

  private String text(MessageSource message) {
    return rebuilt.computeIfAbsent(message, m -> {
      RequestPlan owner = m.owner();
      Composed user = messages.user(owner);
      if (!m.reply()) {
        return user.text().text();
      }
      Composed reply = messages.reply(owner, user);
      return reply.truncate(owner.outputTokens).text().text();
    });
  }
}

package io.kvscope.samples.sim;

import io.kvscope.samples.text.Composed;
import java.util.List;

/**
 * Where one message of a request came from, so the truth can tell which requests held a passage
 * word for word: a shared text used whole (a system prompt, an agent template), or the user
 * message or reply that request {@code owner} first sent or received (a later turn re-sends it in
 * its history), with the shared texts copied into it.
 *
 * @param sharedKey the shared text this message is, whole; -1 for a request's own message
 */
record MessageSource(RequestPlan owner, boolean reply, int sharedKey) {

  static MessageSource shared(int key) {
    return new MessageSource(null, false, key);
  }

  static MessageSource user(RequestPlan owner) {
    return new MessageSource(owner, false, -1);
  }

  static MessageSource reply(RequestPlan owner) {
    return new MessageSource(owner, true, -1);
  }

  /** Shared texts copied into this message (none for a whole shared text: it is one). */
  List<Composed.Embed> embeds() {
    if (owner == null) {
      return List.of();
    }
    List<Composed.Embed> embeds = reply ? owner.replyEmbeds : owner.userEmbeds;
    return embeds == null ? List.of() : embeds;
  }

  /** The same message (also when re-sent in a later turn's history). */
  boolean sameMessage(MessageSource other) {
    return sharedKey >= 0 ? sharedKey == other.sharedKey : owner == other.owner && reply == other.reply;
  }
}

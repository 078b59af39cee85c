package io.kvscope.samples.sim;

import io.kvscope.samples.text.TokenText;
import java.util.ArrayList;
import java.util.List;

/**
 * A multi-turn chat. While open it keeps the text of its turns, because every new turn re-sends
 * them; it also remembers the request ids of all turns, since a turn's prompt and reply reappear
 * verbatim in the history of every later turn.
 */
final class Conversation {

  final long id;
  final Tenant tenant;
  final int systemChoice;
  String deployment;
  final List<TokenText> history = new ArrayList<>();
  /** Where each history message came from. */
  final List<MessageSource> historySources = new ArrayList<>();
  /** The shared question this conversation goes through turn by turn, or -1 for private chat. */
  int question = -1;
  /** The agent template every turn uses as system prompt, or -1. */
  int templateIndex = -1;
  final List<RequestPlan> turns = new ArrayList<>();
  String preferredPrefill;

  Conversation(long id, Tenant tenant, int systemChoice, String deployment) {
    this.id = id;
    this.tenant = tenant;
    this.systemChoice = systemChoice;
    this.deployment = deployment;
  }

  /** Frees the turns' text once no further turn will be sent. */
  void close() {
    history.clear();
    historySources.clear();
  }
}

package io.kvscope.samples.text;

import java.util.List;

/**
 * A question many tenants ask word for word, with what each model answers to it. A model answers
 * a question the same way whatever the system prompt, so every tenant served by that model gets
 * the same reply; several models answer differently.
 *
 * @param key stable name of the question (its corpus id, or {@code builtin-N})
 * @param turns the user's message of each turn (two or more for a multi-turn conversation)
 * @param answers per model, that model's reply to each turn; every list has one reply per turn
 */
public record Question(String key, List<TokenText> turns, List<List<TokenText>> answers) {

  public Question {
    turns = List.copyOf(turns);
    answers = answers.stream().map(List::copyOf).toList();
    if (turns.isEmpty() || answers.isEmpty()) {
      throw new IllegalArgumentException("question " + key + " needs a turn and an answer");
    }
    for (List<TokenText> replies : answers) {
      if (replies.size() != turns.size()) {
        throw new IllegalArgumentException("question " + key + ": one reply per turn expected");
      }
    }
  }

  /** The reply of model {@code model} (any int: taken modulo the models) to turn {@code turn}. */
  public TokenText answer(int model, int turn) {
    return answers.get(Math.floorMod(model, answers.size())).get(turn);
  }
}

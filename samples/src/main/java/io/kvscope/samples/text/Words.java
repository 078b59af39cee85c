package io.kvscope.samples.text;

import io.kvscope.model.fingerprint.WordTokenizer;

/**
 * Counts words in the analysis's unit: a word is one token of {@link WordTokenizer} (its class
 * comment states the rule). The 12-word floor is a rule of the analysis, so the truth's fragment
 * lengths, and its "below the floor, not expected to be found", must be measured in the unit the
 * analysis measures in; one implementation means the two cannot drift apart. This borrows the
 * unit only, never a finding: ground truth still comes from the simulated page table.
 */
public final class Words {

  private Words() {}

  public static int count(CharSequence text) {
    return WordTokenizer.tokenize(text.toString()).size();
  }
}

package io.kvscope.model.evidence;

import io.kvscope.model.finding.Confidence;
import java.util.List;

/**
 * What a chain of rules concluded about one piece of evidence.
 *
 * @param kept false when a rule said it is no evidence ({@link #droppedBy} says which)
 * @param confidence the lowest cap any rule set (confirmed when none did)
 * @param verdicts the notes, caps and the drop, in rule order: the facts that gave the confidence
 */
public record Decision(boolean kept, Confidence confidence, List<Verdict> verdicts) {

  public Decision {
    verdicts = List.copyOf(verdicts);
  }

  /** The rule that dropped it, or null. */
  public String droppedBy() {
    return kept ? null : verdicts.getLast().rule();
  }

  /** Each verdict as {@code rule: reason}. */
  public List<String> reasons() {
    return verdicts.stream().map(Verdict::line).toList();
  }
}

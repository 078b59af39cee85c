package io.kvscope.model.evidence;

import io.kvscope.model.finding.Confidence;
import java.util.ArrayList;
import java.util.List;

/**
 * Rules applied in order to one piece of evidence: the first drop ends the chain; caps lower the
 * confidence, which starts at {@code confirmed}; notes only explain.
 */
public final class RuleChain<F> {

  private final List<EvidenceRule<F>> rules;

  public RuleChain(List<EvidenceRule<F>> rules) {
    this.rules = List.copyOf(rules);
  }

  public List<EvidenceRule<F>> rules() {
    return rules;
  }

  /** The same chain without the rules named {@code names} (to measure what each rule does). */
  public RuleChain<F> without(java.util.Set<String> names) {
    return new RuleChain<>(rules.stream().filter(r -> !names.contains(r.name())).toList());
  }

  public Decision decide(Mechanism mechanism, F facts) {
    Confidence confidence = Confidence.CONFIRMED;
    List<Verdict> verdicts = new ArrayList<>();
    for (EvidenceRule<F> rule : rules) {
      Verdict verdict = rule.apply(mechanism, facts);
      switch (verdict.effect()) {
        case PASS -> { }
        case NOTE -> verdicts.add(verdict);
        case CAP -> {
          verdicts.add(verdict);
          if (verdict.cap().ordinal() > confidence.ordinal()) {
            confidence = verdict.cap();
          }
        }
        case DROP -> {
          verdicts.add(verdict);
          return new Decision(false, Confidence.SUSPECT, verdicts);
        }
      }
    }
    return new Decision(true, confidence, verdicts);
  }
}

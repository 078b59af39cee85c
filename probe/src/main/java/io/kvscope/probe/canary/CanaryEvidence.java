package io.kvscope.probe.canary;

import io.kvscope.model.finding.Finding;
import java.util.ArrayList;
import java.util.List;

/**
 * The canary test's verdict material: the findings its rules produced from the exchanges, the
 * notes that are worth a look but prove nothing, and the prefill fit the timing rule used.
 */
public record CanaryEvidence(List<Finding> findings, List<String> notes, PrefillFit fit) {

  /** Runs every rule over the exchanges. */
  public static CanaryEvidence judge(List<Exchange> exchanges, MarkerLedger ledger, double timingFactor) {
    List<String> notes = new ArrayList<>();
    List<Finding> findings = new ArrayList<>();
    List<Finding> overLength = OverLengthRule.apply(exchanges, notes);
    findings.addAll(overLength);
    findings.addAll(MarkerLeakRule.apply(exchanges, ledger, notes));
    PrefillFit fit = PrefillFit.of(exchanges);
    findings.addAll(FastFirstTokenRule.apply(exchanges, overLength, fit, timingFactor, notes));
    return new CanaryEvidence(List.copyOf(findings), List.copyOf(notes), fit);
  }
}

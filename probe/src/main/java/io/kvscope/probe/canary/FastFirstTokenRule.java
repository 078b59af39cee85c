package io.kvscope.probe.canary;

import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An accepted over-length prompt whose first token came sooner than {@code factor} times the least
 * time its prefill takes on this deployment: the engine cannot have computed the prompt it
 * answered (the incident's replies came faster than a full prefill could have).
 */
final class FastFirstTokenRule {

  private FastFirstTokenRule() {}

  static List<Finding> apply(List<Exchange> exchanges, List<Finding> overLength, PrefillFit fit, double factor,
      List<String> notes) {
    List<Finding> out = new ArrayList<>();
    Set<String> accepted = overLength.stream().map(Finding::requestId).collect(Collectors.toSet());
    for (Exchange e : exchanges) {
      if (!accepted.contains(e.id()) || e.ttftMs() == null) {
        continue;
      }
      if (!fit.usable()) {
        notes.add(e.id() + ": first-token time not judged: " + fit.why());
        continue;
      }
      double minimum = fit.minimumMs(e.judgedTokens());
      if (e.ttftMs() >= factor * minimum) {
        continue;
      }
      FastFirstTokenEvidence evidence = new FastFirstTokenEvidence(e.planned().api().id(), round(e.ttftMs()),
          e.judgedTokens(), round(fit.slopeMsPerToken() * 1000), round(minimum),
          "first token after at least " + round(factor * minimum) + " ms (" + factor + " x the fitted prefill time)",
          "first token after " + round(e.ttftMs()) + " ms");
      out.add(new Finding(FindingKind.TIMING_ANOMALY.id() + ":" + e.id(), FindingKind.TIMING_ANOMALY,
          Confidence.PROBABLE, e.id(), null, null, e.sentAt(), null, null, List.of(), evidence));
    }
    return out;
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}

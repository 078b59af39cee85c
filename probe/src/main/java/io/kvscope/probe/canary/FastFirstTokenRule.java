package io.kvscope.probe.canary;

import io.kvscope.analysis.finding.Confidence;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
      Map<String, Object> evidence = new LinkedHashMap<>();
      evidence.put("api", e.planned().api().id());
      evidence.put("ttft_ms", round(e.ttftMs()));
      evidence.put("prompt_tokens", e.judgedTokens());
      evidence.put("prefill_ms_per_1k_tokens", round(fit.slopeMsPerToken() * 1000));
      evidence.put("least_prefill_ms", round(minimum));
      evidence.put("expected", "first token after at least " + round(factor * minimum) + " ms (" + factor + " x the fitted prefill time)");
      evidence.put("observed", "first token after " + round(e.ttftMs()) + " ms");
      out.add(new Finding(FindingKind.TIMING_ANOMALY.id() + ":" + e.id(), FindingKind.TIMING_ANOMALY,
          Confidence.PROBABLE, e.id(), null, null, e.sentAt(), null, null, List.of(), evidence));
    }
    return out;
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}

package io.kvscope.probe.canary;

import io.kvscope.probe.config.Limits;
import java.util.List;

/**
 * What a run will send: the fill prompts (phase 1, all at once) and the interleaved over-length
 * and normal prompts (phase 2), within the caps, and what was left out and why.
 *
 * @param fillTokens the fill prompts' base length (each varies around it, for the timing fit)
 * @param charsPerToken the estimate the plan's character counts use
 */
public record Plan(List<PlannedRequest> fill, List<PlannedRequest> probes, List<Skipped> skipped, Limits limits,
    long fillTokens, double charsPerToken, int maxNewTokens) {

  public Plan {
    fill = List.copyOf(fill);
    probes = List.copyOf(probes);
    skipped = List.copyOf(skipped);
  }

  public int requests() {
    return fill.size() + probes.size();
  }

  /** Prompt plus output tokens, as the caps count them. */
  public long estimatedTokens() {
    return fill.stream().mapToLong(r -> r.targetTokens() + maxNewTokens).sum()
        + probes.stream().mapToLong(r -> r.targetTokens() + maxNewTokens).sum();
  }

  public long count(RequestKind kind) {
    return fill.stream().filter(r -> r.kind() == kind).count() + probes.stream().filter(r -> r.kind() == kind).count();
  }

  /** True when at least one prompt past a limit will be sent: without one the incident's path is untested. */
  public boolean testsOverLength() {
    return probes.stream().anyMatch(r -> r.kind().overLength());
  }
}

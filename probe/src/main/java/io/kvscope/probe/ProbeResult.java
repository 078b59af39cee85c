package io.kvscope.probe;

import io.kvscope.model.finding.Finding;
import io.kvscope.probe.canary.CanaryEvidence;
import io.kvscope.probe.canary.CanaryRun;
import io.kvscope.probe.canary.Plan;
import io.kvscope.probe.config.FetchRecord;
import io.kvscope.probe.config.Limits;
import io.kvscope.probe.config.NodeReport;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything one run saw and concluded; the report writers render it and nothing else.
 *
 * @param targetFetches reads of the target's model list when the target is not a checked server
 * @param plan null with {@code --config-only}
 * @param canary what was sent and came back; null when nothing was sent
 * @param evidence the canary rules' findings and notes; null when nothing was sent
 * @param reasons why the run failed or could not run (empty on a pass)
 */
public record ProbeResult(String runTag, Instant started, Instant finished, ProbeOptions options, String model,
    List<NodeReport> nodes, List<FetchRecord> targetFetches, Limits limits, Plan plan, CanaryRun.Result canary,
    CanaryEvidence evidence, Outcome outcome, List<String> reasons, List<String> warnings) {

  public ProbeResult {
    nodes = List.copyOf(nodes);
    targetFetches = List.copyOf(targetFetches);
    reasons = List.copyOf(reasons);
    warnings = List.copyOf(warnings);
  }

  /** Config findings of every node, then the canary test's. */
  public List<Finding> findings() {
    List<Finding> all = new ArrayList<>();
    nodes.forEach(n -> all.addAll(n.findings()));
    if (evidence != null) {
      all.addAll(evidence.findings());
    }
    return all;
  }
}

package io.kvscope.probe.config;

import io.kvscope.model.finding.Finding;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.probe.Endpoint;
import java.util.List;
import java.util.Map;

/**
 * What one node's endpoints showed and how it fares against the checklist.
 *
 * @param facts each fact with the raw readings behind it (unknown facts included)
 * @param epoch the facts as the config epoch the analysis audits
 * @param findings the config audit's findings on that epoch
 */
public record NodeReport(Endpoint endpoint, List<FetchRecord> fetches, Map<FactName, Fact<?>> facts, ConfigEpoch epoch,
    List<Finding> findings, List<CheckResult> checks) {

  public NodeReport {
    fetches = List.copyOf(fetches);
    facts = Map.copyOf(facts);
    findings = List.copyOf(findings);
    checks = List.copyOf(checks);
  }

  /** True when any endpoint of the node answered at all. */
  public boolean reachable() {
    return fetches.stream().anyMatch(f -> f.status() >= 0);
  }

  /** True when at least one config response was read. */
  public boolean readable() {
    return fetches.stream().anyMatch(FetchRecord::read);
  }

  /** True when the pool is below the context on an engine not known to be fixed. */
  public boolean exploitable() {
    return checks.stream().anyMatch(c -> Boolean.TRUE.equals(c.exploitable()));
  }

  public CheckResult check(ConfigCheck check) {
    return checks.stream().filter(c -> c.check() == check).findFirst().orElseThrow();
  }

  @SuppressWarnings("unchecked")
  public <T> Fact<T> fact(FactName name) {
    return (Fact<T>) facts.getOrDefault(name, Fact.unknown());
  }
}

package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.Analyzer;
import io.kvscope.analysis.finding.Confidence;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.index.NodeClocks;
import io.kvscope.ingest.record.ConfigEpoch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The operator checklist, per node and per config epoch: KV pool at least the context length,
 * engine at least the fixed release, safeguards (KV canary, KV checksum, deferred release) on.
 * An epoch whose pool is below its context length on an unpatched engine is a vulnerable window.
 */
public final class ConfigAudit implements Analyzer {

  @Override
  public String name() {
    return "config-audit";
  }

  @Override
  public String description() {
    return "Pool size vs context length, engine version and safeguards per node and config epoch";
  }


  @Override
  public void analyze(AnalysisContext context, Consumer<Finding> findings) {
    String fixed = context.options().fixedVersion();
    for (Map.Entry<String, List<ConfigEpoch>> node : context.epochs().byNode().entrySet()) {
      for (NodeEpoch epoch : epochsOf(node.getValue(), context.clocks())) {
        audit(epoch, fixed, findings);
      }
    }
    context.parameter("config-audit.fixed_version", fixed);
  }

  /**
   * A node's epochs with their ends, on the gateway's clock. Prometheus snapshots only
   * corroborate a node that has logs: their timestamps are scrape times, not restarts.
   */
  static List<NodeEpoch> epochsOf(List<ConfigEpoch> epochs, NodeClocks clocks) {
    boolean hasLogs = epochs.stream().anyMatch(e -> !"prometheus".equals(e.source()));
    List<ConfigEpoch> used = epochs.stream().filter(e -> !hasLogs || !"prometheus".equals(e.source())).toList();
    List<NodeEpoch> result = new ArrayList<>();
    for (int i = 0; i < used.size(); i++) {
      ConfigEpoch epoch = used.get(i);
      Instant end = i + 1 < used.size() ? Instant.ofEpochMilli(clocks.toGatewayTime(epoch.node(), used.get(i + 1).start())) : null;
      result.add(new NodeEpoch(epoch, Instant.ofEpochMilli(clocks.toGatewayTime(epoch.node(), epoch.start())), end));
    }
    return result;
  }

  /** An epoch with its end: the next epoch's start, or null while it is the node's latest. */
  record NodeEpoch(ConfigEpoch epoch, Instant start, Instant end) {

    boolean vulnerable(String fixedVersion) {
      return epoch.poolBelowContext() && !VersionOrder.atLeast(epoch.engineVersion(), fixedVersion);
    }
  }

  private static void audit(NodeEpoch ne, String fixed, Consumer<Finding> findings) {
    ConfigEpoch e = ne.epoch();
    String where = e.node() + ":" + e.start();
    if (e.poolBelowContext()) {
      Map<String, Object> evidence = base(ne);
      evidence.put("expected", "pool_tokens >= context_length");
      evidence.put("observed", e.poolTokens() + " < " + e.contextLength());
      evidence.put("exploitable", ne.vulnerable(fixed));
      findings.accept(finding(FindingKind.CONFIG_POOL_BELOW_CONTEXT, where, ne, evidence));
    }
    if (!VersionOrder.atLeast(e.engineVersion(), fixed) && !"prometheus".equals(e.source())) {
      Map<String, Object> evidence = base(ne);
      evidence.put("expected", ">= " + fixed);
      evidence.put("observed", e.engineVersion() == null ? "version not in the logs" : e.engineVersion());
      findings.accept(finding(FindingKind.CONFIG_UNPATCHED_ENGINE, where, ne, evidence));
    }
    List<String> missing = new ArrayList<>();
    if (Boolean.FALSE.equals(e.kvCanary())) {
      missing.add("kv_canary");
    }
    if (Boolean.FALSE.equals(e.kvChecksum())) {
      missing.add("kv_checksum");
    }
    if (Boolean.FALSE.equals(e.deferredRelease())) {
      missing.add("deferred_release");
    }
    if (!missing.isEmpty()) {
      Map<String, Object> evidence = base(ne);
      evidence.put("missing", missing);
      findings.accept(finding(FindingKind.CONFIG_MISSING_SAFEGUARD, where, ne, evidence));
    }
  }

  private static Map<String, Object> base(NodeEpoch ne) {
    ConfigEpoch e = ne.epoch();
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("role", e.role().name().toLowerCase(java.util.Locale.ROOT));
    evidence.put("epoch_start", ne.start().toString());
    evidence.put("epoch_start_node_clock", java.time.Instant.ofEpochMilli(e.start()).toString());
    evidence.put("epoch_end", ne.end() == null ? null : ne.end().toString());
    evidence.put("pool_tokens", e.poolTokens());
    evidence.put("context_length", e.contextLength());
    evidence.put("engine_version", e.engineVersion());
    evidence.put("source", e.sourceFile() + ":" + e.sourceLine());
    return evidence;
  }

  private static Finding finding(FindingKind kind, String where, NodeEpoch ne, Map<String, Object> evidence) {
    return new Finding(kind.id() + ":" + where, kind, Confidence.CONFIRMED, null, null, null, ne.start(),
        ne.epoch().node(), null, List.of(), evidence);
  }
}

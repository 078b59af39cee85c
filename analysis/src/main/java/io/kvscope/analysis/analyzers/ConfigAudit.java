package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.Analyzer;
import io.kvscope.analysis.NodeEpoch;
import io.kvscope.analysis.VersionOrder;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Window;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.VersionSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The operator checklist, per node and per config epoch: KV pool at least the context length,
 * engine at least the fixed release, safeguards (KV canary, KV checksum, deferred release) on.
 * An epoch whose pool is below its context length on an engine not known to be patched is a
 * vulnerable window.
 *
 * <p>No SGLang log line carries the engine version: it comes from deployment records. An epoch
 * whose version no record tells gets {@code config_engine_version_unknown} (suspect: it may be
 * unpatched), never {@code config_unpatched_engine}; an unpatched engine is confirmed only when the
 * record dated what it says (a pod's container status, a manifest row, the engine's own log), and
 * probable when kvscope inferred the time (a workload template, a server info dated by its file).
 *
 * <p>Each finding names the epoch's node and its start on the gateway's clock, which is how views
 * find the findings of a {@link NodeEpoch}.
 */
public final class ConfigAudit implements Analyzer {

  /** The analyzer's name: its key in findings, timings and the requires lists of others. */
  public static final String NAME = "config-audit";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Pool size vs context length, engine version and safeguards per node and config epoch";
  }


  @Override
  public void analyze(AnalysisContext context, Consumer<Finding> findings) {
    String fixed = context.options().fixedVersion();
    for (Map.Entry<String, List<ConfigEpoch>> node : context.epochs().byNode().entrySet()) {
      for (NodeEpoch epoch : NodeEpoch.of(node.getValue(), context.clocks())) {
        audit(epoch, fixed, findings);
      }
    }
    context.parameter(NAME + ".fixed_version", fixed);
  }

  /**
   * The checklist applied to one configuration as seen at {@code at}, with no later epoch: what a
   * live reading of a node's endpoints ({@code kvscope probe}) is judged by, the same rules as logs.
   */
  public static List<Finding> check(ConfigEpoch epoch, Instant at, String fixedVersion) {
    List<Finding> findings = new ArrayList<>();
    audit(new NodeEpoch(epoch, at, null), fixedVersion, findings::add);
    return findings;
  }

  private static void audit(NodeEpoch ne, String fixed, Consumer<Finding> findings) {
    ConfigEpoch e = ne.epoch();
    // The epoch's start as its own log says it: more logs re-estimate the node's clock, never this.
    String where = e.node() + ":" + Instant.ofEpochMilli(e.start());
    if (e.poolBelowContext()) {
      Evidence.Config evidence = evidence(ne, "pool_tokens >= context_length", e.poolTokens() + " < " + e.contextLength(),
          ne.vulnerable(fixed), null, null, null, null, null);
      findings.accept(finding(FindingKind.CONFIG_POOL_BELOW_CONTEXT, where, ne, evidence,
          e.startIsFileTime() ? Confidence.PROBABLE : Confidence.CONFIRMED));
    }
    if (!e.fromMetrics()) {
      version(ne, fixed, where, findings);
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
      Evidence.Config evidence = evidence(ne, null, null, null, null, null, null, null, missing);
      findings.accept(finding(FindingKind.CONFIG_MISSING_SAFEGUARD, where, ne, evidence, Confidence.CONFIRMED));
    }
  }

  /** Unpatched when a record says so (confirmed only if it dated what it says); unknown when none does. */
  private static void version(NodeEpoch ne, String fixed, String where, Consumer<Finding> findings) {
    ConfigEpoch e = ne.epoch();
    VersionSource source = e.versionSource();
    if (e.versionKnown()) {
      boolean contested = ne.contested(fixed); // another record of this epoch says unpatched: a conflict, shown
      if (VersionOrder.atLeast(e.engineVersion(), fixed) && !contested) {
        return;
      }
      Boolean dated = source != null && !source.dated() ? false : null; // said only when it was not
      Evidence.Config evidence = evidence(ne, ">= " + fixed, e.engineVersion(), null, dated,
          contested ? "records disagree: " + source.describe() : null, null, null, null);
      findings.accept(finding(FindingKind.CONFIG_UNPATCHED_ENGINE, where, ne, evidence,
          source == null || source.dated() ? Confidence.CONFIRMED : Confidence.PROBABLE));
      return;
    }
    String why = source != null ? source.describe()
        : "no SGLang log line carries the engine version, and no deployment record covers this epoch";
    Evidence.Config evidence = evidence(ne, ">= " + fixed, Window.UNKNOWN_VERSION, null, null, why,
        provide(e.node(), ne.start()), e.poolBelowContext(), null);
    findings.accept(finding(FindingKind.CONFIG_ENGINE_VERSION_UNKNOWN, where, ne, evidence, Confidence.SUSPECT));
  }

  /** What would settle an unknown version: one of the deployment records kvscope reads. */
  static String provide(String node, Instant start) {
    return "a deployment record naming the engine release of node " + node + " at " + start
        + ": the pod as Kubernetes saw it (kubectl get pod -o yaml: an image tag such as lmsysorg/sglang:v0.5.22-cu126,"
        + " with the container's startedAt), a saved /get_server_info response, or a row of a deployment"
        + " manifest (CSV: node,from,to,version); see docs/formats.md, section Deployment records";
  }

  /** The epoch's facts, then what the check expected and observed (null where the kind says nothing). */
  private static Evidence.Config evidence(NodeEpoch ne, String expected, String observed, Boolean exploitable,
      Boolean versionDated, String why, String provide, Boolean exploitableIfUnpatched, List<String> missing) {
    ConfigEpoch e = ne.epoch();
    return new Evidence.Config(e.role().name().toLowerCase(Locale.ROOT), ne.start(), Instant.ofEpochMilli(e.start()),
        ne.end(), e.poolTokens(), e.contextLength(), e.versionKnown() ? e.engineVersion() : Window.UNKNOWN_VERSION,
        e.versionSource() != null && e.versionKnown() ? e.versionSource().describe() : null,
        e.startIsFileTime() ? "metrics snapshot dated only by its file's modification time (weak)" : null,
        e.sourceFile() + ":" + e.sourceLine(), expected, observed, exploitable, versionDated, why, provide,
        exploitableIfUnpatched, missing);
  }

  private static Finding finding(FindingKind kind, String where, NodeEpoch ne, Evidence.Config evidence,
      Confidence confidence) {
    return new Finding(kind.id() + ":" + where, kind, confidence, null, null, null, ne.start(),
        ne.epoch().node(), null, List.of(), evidence);
  }
}

package io.kvscope.probe;

import io.kvscope.probe.canary.Api;
import io.kvscope.probe.canary.CanaryEvidence;
import io.kvscope.probe.canary.CanaryRun;
import io.kvscope.probe.canary.MarkerLedger;
import io.kvscope.probe.canary.Markers;
import io.kvscope.probe.canary.Plan;
import io.kvscope.probe.canary.Planner;
import io.kvscope.probe.config.FactName;
import io.kvscope.probe.config.FetchRecord;
import io.kvscope.probe.config.Limits;
import io.kvscope.probe.config.NodeCheck;
import io.kvscope.probe.config.NodeReport;
import io.kvscope.probe.http.ProbeHttp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One probe run: read every node's config endpoints and judge them, plan the canary test against
 * the limits found, send it (unless a dry run or config-only), judge what came back.
 */
public final class Probe {

  private Probe() {}

  public static ProbeResult run(ProbeOptions o, ProbeListener listener) throws InterruptedException {
    Instant started = Instant.now();
    Markers markers = Markers.forNewRun();
    try (ProbeHttp http = new ProbeHttp(o.connectTimeout(), o.requestTimeout(), o.apiKey(), userAgent())) {
      List<String> modelIds = new ArrayList<>();
      List<NodeReport> nodes = new ArrayList<>();
      List<Endpoint> endpoints = o.configEndpoints();
      for (int i = 0; i < endpoints.size(); i++) {
        nodes.add(NodeCheck.check(http, endpoints.get(i), o.fixedVersion(), started, modelIds));
        listener.progress("config", i + 1, endpoints.size());
      }
      List<FetchRecord> targetFetches = new ArrayList<>();
      Endpoint target = o.target() == null ? null : new Endpoint("target", o.target());
      if (target != null && o.model() == null && !o.configOnly()
          && endpoints.stream().noneMatch(e -> e.base().equals(o.target()))) {
        modelIds.addAll(0, NodeCheck.modelIds(http, target, targetFetches));
      }
      Limits limits = Limits.of(nodes, o.poolTokens(), o.contextLength());
      boolean sglang = nodes.stream().anyMatch(n -> "sglang".equals(n.fact(FactName.ENGINE).value()));
      List<Api> apis = o.api().resolve(sglang);
      String model = modelOf(o, modelIds, nodes);
      Plan plan = o.configOnly() ? null : Planner.plan(o, limits, apis);
      CanaryRun.Result canary = null;
      CanaryEvidence evidence = null;
      if (plan != null && !o.dryRun()) {
        MarkerLedger ledger = new MarkerLedger(markers);
        canary = new CanaryRun(http, target, model, o, ledger, listener).run(plan);
        evidence = CanaryEvidence.judge(canary.exchanges(), ledger, o.timingFactor());
      }
      ProbeVerdict.Verdict verdict = ProbeVerdict.of(o, nodes, limits, plan, canary, evidence);
      return new ProbeResult(markers.runTag(), started, Instant.now(), o, model, nodes, targetFetches, limits, plan,
          canary, evidence, verdict.outcome(), verdict.reasons(), verdict.warnings());
    }
  }

  /** {@code --model}, else the target's first model, else a node's served model name. */
  private static String modelOf(ProbeOptions o, List<String> modelIds, List<NodeReport> nodes) {
    if (o.model() != null) {
      return o.model();
    }
    if (!modelIds.isEmpty()) {
      return modelIds.get(0);
    }
    return nodes.stream().map(n -> (String) n.fact(FactName.SERVED_MODEL).value()).filter(Objects::nonNull)
        .findFirst().orElse("default");
  }

  static String userAgent() {
    String version = Probe.class.getPackage().getImplementationVersion();
    return "kvscope-probe/" + (version == null ? "dev" : version);
  }
}

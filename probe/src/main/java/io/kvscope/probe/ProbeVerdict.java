package io.kvscope.probe;

import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.probe.canary.CanaryEvidence;
import io.kvscope.probe.canary.CanaryRun;
import io.kvscope.probe.canary.Exchange;
import io.kvscope.probe.canary.Plan;
import io.kvscope.probe.canary.RequestKind;
import io.kvscope.probe.config.CheckResult;
import io.kvscope.probe.config.ConfigCheck;
import io.kvscope.probe.config.Limits;
import io.kvscope.probe.config.NodeReport;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Turns what a run saw into its outcome. Fail: a node whose pool is below its context on an engine
 * not known to be fixed, an over-length prompt answered, a marker in another request's response,
 * or an over-length first token too soon. Could not run: the evidence a pass needs is missing (no
 * over-length prompt tested, no fill prompt served, nothing answered): "no data" is never "no leak".
 */
final class ProbeVerdict {

  record Verdict(Outcome outcome, List<String> reasons, List<String> warnings) {}

  private ProbeVerdict() {}

  static Verdict of(ProbeOptions o, List<NodeReport> nodes, Limits limits, Plan plan, CanaryRun.Result canary,
      CanaryEvidence evidence) {
    List<String> fails = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    configVerdict(o, nodes, fails, missing, warnings);
    if (plan != null) {
      plan.skipped().forEach(s -> warnings.add("not sent: " + s.what() + ": " + s.reason()));
      if (!plan.testsOverLength()) {
        missing.add("no prompt past a limit could be planned, so the incident's path was not tested"
            + (limits.smallestPool() == null && limits.context() == null ? " (no limit known: give --pool-tokens and --context-length)" : ""));
      }
    }
    if (canary != null) {
      canaryVerdict(canary, evidence, fails, missing, warnings);
    }
    Outcome outcome;
    List<String> reasons;
    if (!fails.isEmpty()) {
      outcome = Outcome.FAIL;
      reasons = fails;
    } else if (!missing.isEmpty()) {
      outcome = Outcome.COULD_NOT_RUN;
      reasons = missing;
    } else {
      outcome = o.dryRun() ? Outcome.PLANNED : Outcome.PASS;
      reasons = List.of();
    }
    if (o.dryRun()) {
      warnings.add(0, "dry run: config endpoints were read (GET only); no prompt was sent");
    }
    return new Verdict(outcome, reasons, warnings);
  }

  private static void configVerdict(ProbeOptions o, List<NodeReport> nodes, List<String> fails, List<String> missing,
      List<String> warnings) {
    for (NodeReport n : nodes) {
      String name = n.endpoint().name();
      if (!n.reachable()) {
        warnings.add(name + ": unreachable (" + n.fetches().get(0).error() + ")");
      } else if (!n.readable()) {
        warnings.add(name + ": answered, but no config endpoint could be read");
      }
      CheckResult pool = n.check(ConfigCheck.POOL_VS_CONTEXT);
      if (Boolean.TRUE.equals(pool.exploitable())) {
        fails.add(name + ": KV pool below the context length (" + pool.observed() + ") on engine "
            + orUnknown(n.epoch().engineVersion()) + ", not known to be at least " + o.fixedVersion()
            + ": prompts between the two are admitted and cannot be held");
      } else if (pool.verdict() == CheckResult.Verdict.FAILED) {
        warnings.add(name + ": KV pool below the context length (" + pool.observed() + "); engine "
            + n.epoch().engineVersion() + " refuses such prompts at admission");
      }
      if (o.configOnly() && pool.verdict() == CheckResult.Verdict.UNKNOWN) {
        missing.add(name + ": pool and context could not both be read (" + pool.observed() + ")");
      }
      List<String> falling = new ArrayList<>();
      for (CheckResult c : n.checks()) {
        if (c.check() != ConfigCheck.POOL_VS_CONTEXT && c.verdict() != CheckResult.Verdict.OK) {
          falling.add(c.check().expectation() + ": " + (c.verdict() == CheckResult.Verdict.FAILED ? "no" : "unknown")
              + " (" + c.observed() + ")");
        }
      }
      if (!falling.isEmpty() && n.reachable()) {
        warnings.add(name + ": " + String.join("; ", falling));
      }
    }
    if (!nodes.isEmpty() && nodes.stream().noneMatch(NodeReport::readable) && o.configOnly()) {
      missing.add("no config endpoint of any node could be read");
    }
  }

  private static void canaryVerdict(CanaryRun.Result canary, CanaryEvidence evidence, List<String> fails,
      List<String> missing, List<String> warnings) {
    List<Exchange> ex = canary.exchanges();
    describe(evidence.findings(), FindingKind.OVER_LENGTH_ACCEPTED, "prompt(s) past a limit answered with HTTP 2xx", fails);
    describe(evidence.findings(), FindingKind.CANARY_LEAK, "response(s) carried markers given to other requests", fails);
    describe(evidence.findings(), FindingKind.TIMING_ANOMALY, "over-length answer(s) began sooner than their prefill takes", fails);
    canary.refused().forEach(s -> warnings.add("not sent: " + s.what() + ": " + s.reason()));
    warnings.addAll(evidence.notes());
    if (ex.stream().noneMatch(Exchange::answered)) {
      String first = ex.isEmpty() ? "nothing was sent" : ex.get(0).transportError();
      missing.add("the target answered none of " + ex.size() + " requests (" + first + ")");
      return;
    }
    long fills = ex.stream().filter(e -> e.kind() == RequestKind.FILL).count();
    long served = ex.stream().filter(e -> e.kind() == RequestKind.FILL && e.accepted()).count();
    if (served == 0) {
      missing.add("none of the " + fills + " fill prompts was served (" + statuses(ex, RequestKind.FILL)
          + "): no marked pages to leak, so a clean result would prove nothing");
    } else if (served < fills) {
      warnings.add((fills - served) + " of " + fills + " fill prompts were not served (" + statuses(ex, RequestKind.FILL) + ")");
    }
    if (ex.stream().noneMatch(e -> e.kind().overLength() && e.answered() && !e.pathMissing())) {
      missing.add("no prompt past a limit got an answer");
    }
    ex.stream().filter(Exchange::pathMissing).collect(Collectors.groupingBy(e -> e.planned().api(), java.util.TreeMap::new,
        Collectors.counting())).forEach((api, n) -> warnings.add("the target does not serve " + api.path() + " (HTTP "
            + ex.stream().filter(e -> e.pathMissing() && e.planned().api() == api).findFirst().orElseThrow().status()
            + "): " + n + " request(s) tested nothing" + (api == io.kvscope.probe.canary.Api.GENERATE ? "; use --api chat" : "")));
    long normals = ex.stream().filter(e -> e.kind() == RequestKind.NORMAL).count();
    long normalServed = ex.stream().filter(e -> e.kind() == RequestKind.NORMAL && e.accepted()).count();
    if (normalServed < normals) {
      warnings.add((normals - normalServed) + " of " + normals + " normal prompts were not served (" + statuses(ex, RequestKind.NORMAL) + ")");
    }
  }

  private static void describe(List<Finding> findings, FindingKind kind, String what, List<String> fails) {
    List<String> ids = findings.stream().filter(f -> f.kind() == kind).map(Finding::requestId).toList();
    if (!ids.isEmpty()) {
      fails.add(ids.size() + " " + what + ": " + String.join(", ", ids));
    }
  }

  /** {@code 200 x3, 400 x1, no response x1}. */
  private static String statuses(List<Exchange> ex, RequestKind kind) {
    return ex.stream().filter(e -> e.kind() == kind)
        .collect(Collectors.groupingBy(e -> e.status() < 0 ? "no response" : e.inBandError() != null ? e.status() + " with an error event" : String.valueOf(e.status()),
            java.util.TreeMap::new, Collectors.counting()))
        .entrySet().stream().map(e -> e.getKey() + " x" + e.getValue()).collect(Collectors.joining(", "));
  }

  private static String orUnknown(String v) {
    return v == null ? "(version unknown)" : v;
  }
}

package io.kvscope.probe.report;

import io.kvscope.model.finding.Finding;
import io.kvscope.probe.ProbeResult;
import io.kvscope.probe.canary.Exchange;
import io.kvscope.probe.canary.FastFirstTokenEvidence;
import io.kvscope.probe.canary.Plan;
import io.kvscope.probe.canary.PlannedRequest;
import io.kvscope.probe.canary.RequestKind;
import io.kvscope.probe.config.CheckResult;
import io.kvscope.probe.config.FactName;
import io.kvscope.probe.config.NodeReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The run in a screenful of plain lines for the terminal: the outcome and why, each node's
 * checklist, what was (or would be) sent, every leaked marker with the response that carried it
 * and the request it was given to. No response text, no server text unescaped.
 */
public final class ProbeSummary {

  /** Leaked markers listed on the terminal before "and N more" (the report lists all). */
  static final int MAX_LEAK_LINES = 20;

  private ProbeSummary() {}

  public static List<String> lines(ProbeResult r) {
    List<String> out = new ArrayList<>();
    out.add("kvscope probe: " + r.outcome().id().toUpperCase(Locale.ROOT).replace('_', ' ')
        + "  (run " + r.runTag() + ", exit " + r.outcome().exitCode() + ")");
    r.reasons().forEach(reason -> out.add("  - " + Text.line(reason)));
    out.add("");
    out.add("config (fixed release " + Text.line(r.options().fixedVersion()) + "):");
    for (NodeReport n : r.nodes()) {
      out.add("  " + node(n));
    }
    out.add("  limits: smallest pool " + value(r.limits().smallestPool(), r.limits().poolFrom())
        + ", context " + value(r.limits().context(), r.limits().contextFrom()));
    Plan plan = r.plan();
    if (plan != null) {
      out.add("");
      out.add((r.canary() == null ? "canary test (dry run, would send):" : "canary test:") + " " + plan.requests()
          + String.format(" requests, about %,d tokens (prompts + up to %d output tokens each), model ", plan.estimatedTokens(), plan.maxNewTokens())
          + Text.line(r.model()));
      if (!plan.fill().isEmpty()) {
        long least = plan.fill().stream().mapToLong(PlannedRequest::targetTokens).min().orElse(0);
        long most = plan.fill().stream().mapToLong(PlannedRequest::targetTokens).max().orElse(0);
        out.add(String.format("  phase 1, concurrently: %d fill prompts of %,d to %,d tokens (~%,d to %,d chars; %s)",
            plan.fill().size(), least, most, Math.round(least * plan.charsPerToken()), Math.round(most * plan.charsPerToken()),
            apis(plan.fill())));
      }
      out.add("  phase 2, interleaved: " + describe(plan.probes()));
      if (r.canary() == null) {
        for (PlannedRequest p : plan.probes()) {
          out.add(String.format("    %-15s %-8s %,10d tokens  ~%,d chars%s", p.id(), p.api().id(), p.targetTokens(),
              Math.round(p.targetTokens() * plan.charsPerToken()), p.limit() == null ? "" : "  (limit " + p.limit() + ")"));
        }
      }
    }
    if (r.canary() != null) {
      List<Exchange> ex = r.canary().exchanges();
      out.add("  sent " + ex.size() + ", answered " + ex.stream().filter(Exchange::answered).count()
          + "; chars/token " + String.format("%.2f", r.canary().calibration().used())
          + (r.canary().calibration().samples() > 0 ? " (calibrated on " + r.canary().calibration().samples() + " server counts)" : " (not calibrated)"));
      for (Exchange e : ex) {
        if (e.kind().overLength()) {
          out.add("  " + e.id() + " (" + e.planned().api().id() + ", ~" + e.estimatedTokens() + " tokens, limit "
              + e.planned().limit() + "): " + outcome(e));
        }
      }
      List<Map<String, Object>> leaks = ProbeReportJson.leaks(r);
      out.add("  leaked markers: " + leaks.size());
      for (int i = 0; i < Math.min(MAX_LEAK_LINES, leaks.size()); i++) {
        Map<String, Object> l = leaks.get(i);
        out.add("    " + Text.line(String.valueOf(l.get("marker"))) + " given to " + l.get("given_to") + ", came back in "
            + l.get("recipient") + " (HTTP " + l.get("recipient_status") + ")");
      }
      if (leaks.size() > MAX_LEAK_LINES) {
        out.add("    ... and " + (leaks.size() - MAX_LEAK_LINES) + " more in the report");
      }
      for (Finding f : r.evidence().findings()) {
        if (f.evidence() instanceof FastFirstTokenEvidence t) {
          out.add("  first token too soon: " + f.requestId() + ": " + Text.line(t.observed()) + ", expected "
              + Text.line(t.expected()));
        }
      }
    }
    if (!r.warnings().isEmpty()) {
      out.add("");
      out.add("warnings:");
      r.warnings().forEach(w -> out.add("  - " + Text.line(w)));
    }
    return out;
  }

  private static String node(NodeReport n) {
    String engine = (String) n.fact(FactName.ENGINE).value();
    StringBuilder b = new StringBuilder(Text.line(n.endpoint().name()));
    b.append(" (").append(engine == null ? "engine unknown" : engine).append(' ')
        .append(n.epoch().role().name().toLowerCase(Locale.ROOT))
        .append(", version ").append(n.epoch().engineVersion() == null ? "unknown" : Text.line(n.epoch().engineVersion())).append("): ");
    if (!n.reachable()) {
      return b.append("unreachable").toString();
    }
    List<String> checks = new ArrayList<>();
    for (CheckResult c : n.checks()) {
      checks.add(c.check().id() + " " + c.verdict().id() + (c.verdict() == CheckResult.Verdict.OK && c.check().ordinal() > 1 ? ""
          : " (" + Text.line(c.observed()) + ")") + (Boolean.TRUE.equals(c.exploitable()) ? " EXPLOITABLE" : ""));
    }
    return b.append(String.join(", ", checks)).toString();
  }

  private static String outcome(Exchange e) {
    if (!e.answered()) {
      return "no response (" + Text.line(e.transportError()) + ")";
    }
    if (e.accepted()) {
      return "HTTP " + e.status() + ", answered" + (e.reportedPromptTokens() != null ? ", the server counted " + e.reportedPromptTokens() + " prompt token" + (e.reportedPromptTokens() == 1 ? "" : "s") : "")
          + (e.ttftMs() != null ? String.format(", first token after %.1f ms", e.ttftMs()) : "");
    }
    if (e.inBandError() != null) {
      return "HTTP " + e.status() + ", refused in the stream (" + Text.line(e.inBandError()) + ")";
    }
    return "HTTP " + e.status() + ", refused" + (e.errorMessage() == null ? "" : " (" + Text.line(e.errorMessage()) + ")");
  }

  private static String describe(List<PlannedRequest> probes) {
    List<String> parts = new ArrayList<>();
    for (RequestKind kind : RequestKind.values()) {
      long n = probes.stream().filter(p -> p.kind() == kind).count();
      if (n > 0) {
        parts.add(n + " " + kind.id());
      }
    }
    return parts.isEmpty() ? "nothing" : String.join(", ", parts);
  }

  private static String apis(List<PlannedRequest> requests) {
    return String.join(" + ", requests.stream().map(p -> p.api().id()).distinct().toList());
  }

  private static String value(Long v, String from) {
    return v == null ? "unknown" : v + " (" + Text.line(from) + ")";
  }
}

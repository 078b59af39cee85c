package io.kvscope.probe.report;

import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.analysis.report.ContentRedactor;
import io.kvscope.index.store.Redaction;
import io.kvscope.probe.ProbeResult;
import io.kvscope.probe.canary.Exchange;
import io.kvscope.probe.config.CheckResult;
import io.kvscope.probe.config.Fact;
import io.kvscope.probe.config.FactName;
import io.kvscope.probe.config.FetchRecord;
import io.kvscope.probe.config.NodeReport;
import io.kvscope.probe.config.Observation;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code probe.md}: the run for people, in the order a reviewer asks: verdict, why, evidence. */
public final class ProbeReportMarkdown {

  private ProbeReportMarkdown() {}

  public static String render(ProbeResult r) {
    StringBuilder b = new StringBuilder();
    b.append("# kvscope probe: ").append(r.outcome().id().toUpperCase(Locale.ROOT).replace('_', ' ')).append("\n\n");
    b.append("Run `").append(r.runTag()).append("`, ").append(r.started()).append(" to ").append(r.finished())
        .append(". Target ").append(Text.md(r.options().target() == null ? "-" : r.options().target().toString()))
        .append(", fixed release ").append(Text.md(r.options().fixedVersion())).append(", exit code ")
        .append(r.outcome().exitCode()).append(".\n\n");
    if (!r.reasons().isEmpty()) {
      b.append("## Why\n\n");
      r.reasons().forEach(reason -> b.append("- ").append(Text.md(reason)).append('\n'));
      b.append('\n');
    }
    b.append("## Nodes\n\n| node | engine | role | version | pool tokens | context length | page | checks |\n|---|---|---|---|---|---|---|---|\n");
    for (NodeReport n : r.nodes()) {
      b.append("| ").append(Text.md(n.endpoint().name())).append(" | ").append(cell(n.fact(FactName.ENGINE).value()))
          .append(" | ").append(n.epoch().role().name().toLowerCase(Locale.ROOT)).append(" | ").append(cell(n.epoch().engineVersion()))
          .append(" | ").append(cell(n.epoch().poolTokens())).append(" | ").append(cell(n.epoch().contextLength()))
          .append(" | ").append(cell(n.epoch().pageSize())).append(" | ");
      for (CheckResult c : n.checks()) {
        b.append(c.check().id()).append(": **").append(c.verdict().id()).append("** (").append(Text.md(c.observed())).append(")")
            .append(Boolean.TRUE.equals(c.exploitable()) ? " exploitable" : "").append("<br>");
      }
      b.append(" |\n");
    }
    b.append('\n');
    for (NodeReport n : r.nodes()) {
      b.append("### ").append(Text.md(n.endpoint().name())).append(" (").append(Text.md(n.endpoint().base().toString())).append(")\n\n");
      b.append("| request | status | ms | read | error |\n|---|---|---|---|---|\n");
      for (FetchRecord f : n.fetches()) {
        b.append("| GET ").append(Text.md(f.path())).append(" | ").append(f.status() < 0 ? "-" : f.status()).append(" | ")
            .append(f.elapsedMs()).append(" | ").append(f.read() ? "yes" : "no").append(" | ").append(cell(f.error())).append(" |\n");
      }
      b.append("\n| fact | value | raw readings |\n|---|---|---|\n");
      for (FactName name : FactName.values()) {
        Fact<?> f = n.fact(name);
        if (!f.known() && f.observed().isEmpty()) {
          continue;
        }
        b.append("| ").append(name.id()).append(" | ").append(cell(f.value())).append(" | ");
        for (Observation o : f.observed()) {
          b.append(Text.md(o.source())).append(" `").append(Text.line(o.field()).replace('`', '\'')).append("` = ")
              .append(Text.md(o.raw())).append("<br>");
        }
        b.append(" |\n");
      }
      b.append('\n');
    }
    if (r.canary() != null) {
      b.append("## Canary test\n\n");
      b.append("Sent ").append(r.canary().exchanges().size()).append(" requests (").append(r.plan().fill().size())
          .append(" fill prompts first, concurrently, then ").append(r.plan().probes().size())
          .append(" interleaved). Characters per token used: ").append(String.format("%.2f", r.canary().calibration().used()))
          .append(". Prefill fit: ").append(r.evidence().fit().usable()
              ? String.format("%.1f ms per 1k tokens over %d requests", r.evidence().fit().slopeMsPerToken() * 1000, r.evidence().fit().points())
              : "not usable (" + Text.md(r.evidence().fit().why()) + ")").append(".\n\n");
      List<Map<String, Object>> leaks = ProbeReportJson.leaks(r);
      b.append("### Leaked markers (").append(leaks.size()).append(")\n\n");
      if (!leaks.isEmpty()) {
        b.append("| came back in | its kind | HTTP | api | marker | given to | match |\n|---|---|---|---|---|---|---|\n");
        for (Map<String, Object> l : leaks) {
          b.append("| ").append(cell(l.get("recipient"))).append(" | ").append(cell(l.get("recipient_kind"))).append(" | ")
              .append(cell(l.get("recipient_status"))).append(" | ").append(cell(l.get("api"))).append(" | `")
              .append(Text.line(String.valueOf(l.get("marker")))).append("` | ").append(cell(l.get("given_to"))).append(" | ")
              .append(cell(l.get("match"))).append(" |\n");
        }
        b.append('\n');
      }
      b.append("### Requests\n\n| id | kind | api | prompt chars | est. tokens | limit | HTTP | outcome | first token ms | server prompt tokens | markers given | markers found | response |\n")
          .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
      ContentRedactor redactor = new ContentRedactor(r.options().reveal(), Redaction.ephemeral());
      for (Exchange e : r.canary().exchanges()) {
        ContentRedactor.Shown shown = redactor.show(e.response());
        b.append("| ").append(Text.md(e.id())).append(" | ").append(e.kind().id()).append(" | ").append(e.planned().api().id())
            .append(" | ").append(e.promptChars()).append(" | ").append(e.estimatedTokens()).append(" | ").append(cell(e.planned().limit()))
            .append(" | ").append(e.status() < 0 ? "-" : e.status()).append(" | ").append(Text.md(outcome(e))).append(" | ")
            .append(e.ttftMs() == null ? "-" : String.format("%.1f", e.ttftMs())).append(" | ").append(cell(e.reportedPromptTokens()))
            .append(" | ").append(e.markersGiven()).append(" | ")
            .append(io.kvscope.probe.canary.Markers.find(e.response()).stream().distinct().count()).append(" | ")
            .append(shown == null ? "-" : Text.md(shown.excerpt()) + " (" + shown.length() + " chars, " + shown.hash() + ")")
            .append(" |\n");
      }
      b.append('\n');
    } else if (r.plan() != null) {
      b.append("## Canary test\n\nNot sent (dry run). Planned: ").append(r.plan().requests()).append(" requests, about ")
          .append(r.plan().estimatedTokens()).append(" tokens.\n\n");
    }
    if (!r.findings().isEmpty()) {
      b.append("## Findings\n\n");
      for (Finding f : r.findings()) {
        b.append("- **").append(f.kind().id()).append("** (").append(f.confidence().id()).append(") ").append(Text.md(f.id()))
            .append(": expected ").append(Text.md(String.valueOf(expected(f))))
            .append("; observed ").append(Text.md(String.valueOf(observed(f))))
            .append('\n');
      }
      b.append('\n');
    }
    if (!r.warnings().isEmpty()) {
      b.append("## Warnings\n\n");
      r.warnings().forEach(w -> b.append("- ").append(Text.md(w)).append('\n'));
      b.append('\n');
    }
    b.append("Response text is ").append(r.options().reveal() ? "shown (--reveal)" : "masked; run with --reveal to keep it")
        .append(". Markers are synthetic and shown in full.\n");
    return b.toString();
  }

  static String outcome(Exchange e) {
    if (!e.answered()) {
      return e.timedOut() ? "timed out" : "no response";
    }
    if (e.accepted()) {
      return "answered";
    }
    return e.inBandError() != null ? "error event: " + e.inBandError() : "refused" + (e.errorMessage() == null ? "" : ": " + e.errorMessage());
  }

  private static String cell(Object v) {
    return v == null ? "-" : Text.md(v instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT) : String.valueOf(v));
  }

  /** What a finding's check expected, as the probe's reports list it. */
  static String expected(Finding f) {
    return f.evidence() instanceof Evidence.Check c ? c.expected() : null;
  }

  /** What it observed, or for a missing safeguard the safeguards missing. */
  static Object observed(Finding f) {
    return switch (f.evidence()) {
      case Evidence.Config c when c.observed() == null -> c.missing().isEmpty() ? null : c.missing();
      case Evidence.Check c -> c.observed();
      default -> null;
    };
  }
}

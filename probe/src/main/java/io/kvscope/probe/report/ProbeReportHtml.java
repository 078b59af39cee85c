package io.kvscope.probe.report;

import io.kvscope.model.finding.Finding;
import io.kvscope.analysis.report.ContentRedactor;
import io.kvscope.index.store.Redaction;
import io.kvscope.probe.ProbeResult;
import io.kvscope.probe.canary.Exchange;
import io.kvscope.probe.canary.Markers;
import io.kvscope.probe.config.CheckResult;
import io.kvscope.probe.config.Fact;
import io.kvscope.probe.config.FactName;
import io.kvscope.probe.config.FetchRecord;
import io.kvscope.probe.config.NodeReport;
import io.kvscope.probe.config.Observation;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code probe.html}: the same content as the Markdown page, standalone, no script. */
public final class ProbeReportHtml {

  private ProbeReportHtml() {}

  public static String render(ProbeResult r) {
    StringBuilder b = new StringBuilder();
    String verdict = r.outcome().id().toUpperCase(Locale.ROOT).replace('_', ' ');
    b.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">")
        .append("<title>kvscope probe: ").append(verdict).append("</title><style>")
        .append("body{font-family:system-ui,sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse;margin:.5em 0 1.5em}")
        .append("td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}code{font-size:.9em}")
        .append(".fail{color:#b00020}.pass{color:#1b5e20}.could_not_run,.planned{color:#8a6d00}</style></head><body>");
    b.append("<h1>kvscope probe: <span class=\"").append(r.outcome().id()).append("\">").append(verdict).append("</span></h1>");
    b.append("<p>Run <code>").append(Text.html(r.runTag())).append("</code>, ").append(r.started()).append(" to ")
        .append(r.finished()).append(". Target ").append(Text.html(r.options().target() == null ? "-" : r.options().target().toString()))
        .append(", fixed release ").append(Text.html(r.options().fixedVersion())).append(", exit code ")
        .append(r.outcome().exitCode()).append(".</p>");
    list(b, "Why", r.reasons());
    b.append("<h2>Nodes</h2><table><tr><th>node</th><th>engine</th><th>role</th><th>version</th><th>pool tokens</th>")
        .append("<th>context length</th><th>page</th><th>checks</th></tr>");
    for (NodeReport n : r.nodes()) {
      b.append("<tr><td>").append(Text.html(n.endpoint().name())).append("</td><td>").append(cell(n.fact(FactName.ENGINE).value()))
          .append("</td><td>").append(n.epoch().role().name().toLowerCase(Locale.ROOT)).append("</td><td>")
          .append(cell(n.epoch().engineVersion())).append("</td><td>").append(cell(n.epoch().poolTokens())).append("</td><td>")
          .append(cell(n.epoch().contextLength())).append("</td><td>").append(cell(n.epoch().pageSize())).append("</td><td>");
      for (CheckResult c : n.checks()) {
        b.append(c.check().id()).append(": <b>").append(c.verdict().id()).append("</b> (").append(Text.html(c.observed())).append(')')
            .append(Boolean.TRUE.equals(c.exploitable()) ? " <b class=\"fail\">exploitable</b>" : "").append("<br>");
      }
      b.append("</td></tr>");
    }
    b.append("</table>");
    for (NodeReport n : r.nodes()) {
      b.append("<h3>").append(Text.html(n.endpoint().name())).append(" (").append(Text.html(n.endpoint().base().toString())).append(")</h3>");
      b.append("<table><tr><th>request</th><th>status</th><th>ms</th><th>read</th><th>error</th></tr>");
      for (FetchRecord f : n.fetches()) {
        b.append("<tr><td>GET ").append(Text.html(f.path())).append("</td><td>").append(f.status() < 0 ? "-" : f.status())
            .append("</td><td>").append(f.elapsedMs()).append("</td><td>").append(f.read() ? "yes" : "no").append("</td><td>")
            .append(cell(f.error())).append("</td></tr>");
      }
      b.append("</table><table><tr><th>fact</th><th>value</th><th>raw readings</th></tr>");
      for (FactName name : FactName.values()) {
        Fact<?> f = n.fact(name);
        if (!f.known() && f.observed().isEmpty()) {
          continue;
        }
        b.append("<tr><td>").append(name.id()).append("</td><td>").append(cell(f.value())).append("</td><td>");
        for (Observation o : f.observed()) {
          b.append(Text.html(o.source())).append(" <code>").append(Text.html(o.field())).append("</code> = ")
              .append(Text.html(o.raw())).append("<br>");
        }
        b.append("</td></tr>");
      }
      b.append("</table>");
    }
    if (r.canary() != null) {
      b.append("<h2>Canary test</h2><p>Sent ").append(r.canary().exchanges().size()).append(" requests. Characters per token used: ")
          .append(String.format("%.2f", r.canary().calibration().used())).append(". Prefill fit: ")
          .append(r.evidence().fit().usable()
              ? String.format("%.1f ms per 1k tokens over %d requests", r.evidence().fit().slopeMsPerToken() * 1000, r.evidence().fit().points())
              : "not usable (" + Text.html(r.evidence().fit().why()) + ")").append(".</p>");
      List<Map<String, Object>> leaks = ProbeReportJson.leaks(r);
      b.append("<h3>Leaked markers (").append(leaks.size()).append(")</h3>");
      if (!leaks.isEmpty()) {
        b.append("<table><tr><th>came back in</th><th>its kind</th><th>HTTP</th><th>api</th><th>marker</th><th>given to</th><th>match</th></tr>");
        for (Map<String, Object> l : leaks) {
          b.append("<tr><td>").append(cell(l.get("recipient"))).append("</td><td>").append(cell(l.get("recipient_kind")))
              .append("</td><td>").append(cell(l.get("recipient_status"))).append("</td><td>").append(cell(l.get("api")))
              .append("</td><td><code>").append(cell(l.get("marker"))).append("</code></td><td>").append(cell(l.get("given_to")))
              .append("</td><td>").append(cell(l.get("match"))).append("</td></tr>");
        }
        b.append("</table>");
      }
      b.append("<h3>Requests</h3><table><tr><th>id</th><th>kind</th><th>api</th><th>prompt chars</th><th>est. tokens</th>")
          .append("<th>limit</th><th>HTTP</th><th>outcome</th><th>first token ms</th><th>server prompt tokens</th>")
          .append("<th>markers given</th><th>markers found</th><th>response</th></tr>");
      ContentRedactor redactor = new ContentRedactor(r.options().reveal(), Redaction.ephemeral());
      for (Exchange e : r.canary().exchanges()) {
        ContentRedactor.Shown shown = redactor.show(e.response());
        b.append("<tr><td>").append(Text.html(e.id())).append("</td><td>").append(e.kind().id()).append("</td><td>")
            .append(e.planned().api().id()).append("</td><td>").append(e.promptChars()).append("</td><td>").append(e.estimatedTokens())
            .append("</td><td>").append(cell(e.planned().limit())).append("</td><td>").append(e.status() < 0 ? "-" : e.status())
            .append("</td><td>").append(Text.html(ProbeReportMarkdown.outcome(e))).append("</td><td>")
            .append(e.ttftMs() == null ? "-" : String.format("%.1f", e.ttftMs())).append("</td><td>").append(cell(e.reportedPromptTokens()))
            .append("</td><td>").append(e.markersGiven()).append("</td><td>").append(Markers.find(e.response()).stream().distinct().count())
            .append("</td><td>").append(shown == null ? "-" : Text.html(shown.excerpt()) + " (" + shown.length() + " chars, " + Text.html(shown.hash()) + ")")
            .append("</td></tr>");
      }
      b.append("</table>");
    } else if (r.plan() != null) {
      b.append("<h2>Canary test</h2><p>Not sent (dry run). Planned: ").append(r.plan().requests()).append(" requests, about ")
          .append(r.plan().estimatedTokens()).append(" tokens.</p>");
    }
    if (!r.findings().isEmpty()) {
      b.append("<h2>Findings</h2><ul>");
      for (Finding f : r.findings()) {
        b.append("<li><b>").append(f.kind().id()).append("</b> (").append(f.confidence().id()).append(") ").append(Text.html(f.id()))
            .append(": expected ").append(Text.html(String.valueOf(ProbeReportMarkdown.expected(f))))
            .append("; observed ").append(Text.html(String.valueOf(ProbeReportMarkdown.observed(f))))
            .append("</li>");
      }
      b.append("</ul>");
    }
    list(b, "Warnings", r.warnings());
    b.append("<p>Response text is ").append(r.options().reveal() ? "shown (--reveal)" : "masked; run with --reveal to keep it")
        .append(". Markers are synthetic and shown in full.</p></body></html>\n");
    return b.toString();
  }

  private static void list(StringBuilder b, String title, List<String> items) {
    if (items.isEmpty()) {
      return;
    }
    b.append("<h2>").append(title).append("</h2><ul>");
    items.forEach(i -> b.append("<li>").append(Text.html(i)).append("</li>"));
    b.append("</ul>");
  }

  private static String cell(Object v) {
    return v == null ? "-" : Text.html(v instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT) : String.valueOf(v));
  }
}

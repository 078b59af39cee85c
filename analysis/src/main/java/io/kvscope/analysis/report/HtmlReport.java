package io.kvscope.analysis.report;

import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.impact.Coverage;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.impact.Window;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * report.html: the incident review as one self-contained page (inline CSS and SVG, no script, no
 * fonts or images to fetch; a Content-Security-Policy forbids loading anything) that can be mailed
 * or opened offline: the "is it over?" banner, summary cards, the timeline with vulnerable windows
 * per node, window tables, tenants, the source x recipient heat map, data categories, coverage,
 * the most severe findings and the parameters. Leaked text only with {@code reveal}.
 */
public final class HtmlReport {

  public static final String FILE_NAME = Format.HTML.fileName();

  private HtmlReport() {}

  public static Path write(Report report, Path target, WriteOptions options) throws IOException {
    ReportView view = new ReportView(report, options);
    return AtomicFile.writeText(target, out -> write(view, out));
  }

  static void write(ReportView view, Writer out) throws IOException {
    Report report = view.report();
    out.write("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.write("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n");
    out.write("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.write("<title>kvscope incident report</title>\n<style>\n" + CSS + "</style>\n</head>\n<body>\n<main>\n");
    out.write("<header><h1>kvscope incident report</h1><p class=\"meta\">Generated " + ReportView.time(report.generatedAt())
        + " \u00b7 index <code>" + Html.esc(report.index()) + "</code> \u00b7 report version "
        + Html.esc(report.reportVersion()) + " \u00b7 all times UTC</p></header>\n");
    headline(out, view.headline());
    cards(out, report.summary());
    timeline(out, view);
    windows(out, view);
    tenants(out, view);
    matrix(out, view);
    categories(out, view);
    coverage(out, report.coverage());
    findings(out, view);
    leakedContent(out, view);
    parameters(out, view);
    out.write("</main>\n</body>\n</html>\n");
  }

  private static void headline(Writer out, ReportView.Headline h) throws IOException {
    out.write("<section class=\"status " + (h.over() ? "over" : "open") + "\" id=\"status\">\n<h2>"
        + Html.esc(h.title()) + "</h2>\n<ul>\n");
    for (String line : h.lines()) {
      out.write("<li>" + Html.times(Html.esc(line)) + "</li>\n");
    }
    out.write("</ul>\n</section>\n");
  }

  private static void cards(Writer out, Summary s) throws IOException {
    out.write("<section class=\"cards\" id=\"summary\">\n");
    card(out, "alert", "Leaked responses", ReportView.number(s.leakedResponses()), "cross-tenant, confirmed + probable");
    card(out, "", "Source requests", ReportView.number(s.sourceRequests()), "whose data leaked");
    card(out, "", "Victim tenants", ReportView.number(s.victimTenants()), "lost data");
    card(out, "", "Recipient tenants", ReportView.number(s.recipientTenants()), "received others' data");
    card(out, "", "Tokens exposed", ReportView.number(s.tokensExposed()), "attributed to other tenants");
    card(out, "", "Over-length accepted", ReportView.number(s.overLengthAccepted()), "answered despite the limit");
    card(out, "", "Prefill underruns", ReportView.number(s.prefillUnderruns()), "prefilled far less than sent");
    card(out, "muted", "Not counted", ReportView.number(s.suspectResponses()) + " / " + ReportView.number(s.sameTenantReuse()),
        "timing-only suspects / same-tenant reuse");
    card(out, "time", "First exposure", ReportView.time(s.firstExposure()), "");
    card(out, "time", "Last exposure", ReportView.time(s.lastExposure()), "");
    out.write("</section>\n");
  }

  private static void card(Writer out, String kind, String label, String value, String note) throws IOException {
    out.write("<div class=\"card " + kind + "\"><div class=\"label\">" + Html.esc(label) + "</div><div class=\"value\">"
        + Html.esc(value) + "</div>" + (note.isEmpty() ? "" : "<div class=\"note\">" + Html.esc(note) + "</div>")
        + "</div>\n");
  }

  private static void timeline(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"timeline\"><h2>Timeline</h2>\n");
    String svg = TimelineChart.svg(view.report(), view.vulnerableByNode(), view.exposureWindows());
    out.write(svg == null ? "<p class=\"empty\">Nothing to draw: no timeline and no windows.</p>\n" : svg + "\n");
    out.write("</section>\n");
  }

  private static void windows(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"vulnerable\"><h2>Vulnerable windows</h2>\n");
    Map<String, List<Window>> byNode = view.vulnerableByNode();
    if (byNode.isEmpty()) {
      out.write("<p class=\"empty\">No node ran a vulnerable configuration in the logs seen.</p>\n");
    } else {
      out.write("<table><thead><tr><th>Node</th><th>Start</th><th>End</th><th>Duration</th><th class=\"num\">Requests served</th>"
          + "<th>Engine version</th><th>Reason</th></tr></thead><tbody>\n");
      for (Map.Entry<String, List<Window>> node : byNode.entrySet()) {
        boolean first = true;
        for (Window w : node.getValue()) {
          out.write("<tr" + (first ? " class=\"group\"" : "") + "><td>" + (first ? Html.esc(node.getKey()) : "") + "</td><td>"
              + ReportView.time(w.start()) + "</td><td>" + end(w) + "</td><td>" + ReportView.duration(w.start(), w.end())
              + "</td><td class=\"num\">" + ReportView.number(w.count()) + "</td><td>"
              + (w.versionUnknown() ? "<strong class=\"unknown-version\">unknown</strong>" : Html.esc(ReportView.orDash(w.engineVersion())))
              + "</td><td>" + Html.esc(ReportView.orDash(w.reason())) + "</td></tr>\n");
          first = false;
        }
      }
      out.write("</tbody></table>\n");
      if (view.anyVersionUnknown()) {
        out.write("<p class=\"note\" id=\"unknown-version-note\">" + Html.esc(ReportView.UNKNOWN_VERSION_NOTE) + "</p>\n");
      }
    }
    out.write("</section>\n<section id=\"exposure\"><h2>Exposure windows</h2>\n");
    List<Window> exposures = view.exposureWindows();
    if (exposures.isEmpty()) {
      out.write("<p class=\"empty\">No leaked responses were found.</p>\n");
    } else {
      out.write("<table><thead><tr><th>Deployment</th><th>Node</th><th>Start</th><th>End</th><th>Duration</th>"
          + "<th class=\"num\">Leaked responses</th></tr></thead><tbody>\n");
      for (Window w : exposures) {
        out.write("<tr><td>" + Html.esc(ReportView.orDash(w.deployment())) + "</td><td>" + Html.esc(ReportView.orDash(w.node()))
            + "</td><td>" + ReportView.time(w.start()) + "</td><td>" + end(w) + "</td><td>"
            + ReportView.duration(w.start(), w.end()) + "</td><td class=\"num\">" + ReportView.number(w.count()) + "</td></tr>\n");
      }
      out.write("</tbody></table>\n");
    }
    out.write("</section>\n");
  }

  private static String end(Window w) {
    return w.open() ? "<span class=\"badge open\">open</span>" : ReportView.time(w.end());
  }

  private static void tenants(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"tenants\"><h2>Tenants</h2>\n");
    List<TenantImpact> tenants = view.tenants();
    if (tenants.isEmpty()) {
      out.write("<p class=\"empty\">No tenant lost or received data.</p>\n</section>\n");
      return;
    }
    long maxTokens = 1;
    for (TenantImpact t : tenants) {
      maxTokens = Math.max(maxTokens, Math.max(t.asVictim().tokens(), t.asRecipient().tokens()));
    }
    out.write("<p class=\"hint\">As victim: their requests whose data other tenants received. As recipient: their"
        + " responses that carried other tenants' data.</p>\n");
    out.write("<table><thead><tr><th rowspan=\"2\">Tenant</th><th colspan=\"3\" class=\"victim\">As victim</th>"
        + "<th colspan=\"3\" class=\"recipient\">As recipient</th></tr><tr><th class=\"num\">Requests</th>"
        + "<th class=\"num\">Responses carrying them</th><th class=\"num\">Tokens</th><th class=\"num\">Responses</th>"
        + "<th class=\"num\">Source requests</th><th class=\"num\">Tokens</th></tr></thead><tbody>\n");
    for (TenantImpact t : tenants) {
      out.write("<tr><td>" + Html.esc(ReportView.orDash(t.tenant())) + "</td><td class=\"num\">"
          + ReportView.number(t.asVictim().requests()) + "</td><td class=\"num\">" + ReportView.number(t.asVictim().recipients())
          + "</td><td class=\"num\">" + bar(t.asVictim().tokens(), maxTokens, "victim") + "</td><td class=\"num\">"
          + ReportView.number(t.asRecipient().responses()) + "</td><td class=\"num\">" + ReportView.number(t.asRecipient().sources())
          + "</td><td class=\"num\">" + bar(t.asRecipient().tokens(), maxTokens, "recipient") + "</td></tr>\n");
    }
    out.write("</tbody></table>\n");
    if (view.moreTenants() > 0) {
      out.write("<p class=\"more\">\u2026 and " + ReportView.plural(view.moreTenants(), "more tenant")
          + " in report.json.</p>\n");
    }
    out.write("</section>\n");
  }

  /** A number after a small meter showing it against the column's largest. */
  private static String bar(long value, long max, String kind) {
    int pct = (int) Math.round(100.0 * value / Math.max(1, max));
    return "<span class=\"meter\"><span class=\"fill " + kind + "\" style=\"width:" + pct + "%\"></span></span>"
        + "<span class=\"n\">" + ReportView.number(value) + "</span>";
  }

  private static void matrix(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"matrix\"><h2>Source \u00d7 recipient</h2>\n");
    ReportView.Matrix m = view.matrix();
    if (m.sources().isEmpty()) {
      out.write("<p class=\"empty\">No data crossed between tenants.</p>\n</section>\n");
      return;
    }
    out.write("<p class=\"hint\">Rows: whose data leaked (source). Columns: who received it. Cells: responses"
        + " (hover for tokens).</p>\n");
    out.write("<table class=\"heat\"><thead><tr><th class=\"corner\">source \u2193 / recipient \u2192</th>");
    for (String r : m.recipients()) {
      out.write("<th title=\"" + Html.esc(r) + "\">" + Html.esc(Html.cut(r, 14)) + "</th>");
    }
    out.write("</tr></thead><tbody>\n");
    for (String s : m.sources()) {
      out.write("<tr><th title=\"" + Html.esc(s) + "\">" + Html.esc(Html.cut(s, 22)) + "</th>");
      for (String r : m.recipients()) {
        MatrixCell c = m.cell(s, r);
        if (c == null || c.responses() == 0) {
          out.write("<td class=\"zero\"></td>");
        } else {
          double intensity = 0.12 + 0.88 * c.responses() / Math.max(1, m.maxResponses());
          out.write(String.format(Locale.ROOT,
              "<td style=\"background:rgba(198,40,40,%.2f);color:%s\" title=\"%s \u2192 %s: %d responses, %s tokens\">%d</td>",
              intensity, intensity > 0.55 ? "#fff" : "#3e2723", Html.esc(s), Html.esc(r), c.responses(),
              ReportView.number(c.tokens()), c.responses()));
        }
      }
      out.write("</tr>\n");
    }
    out.write("</tbody></table>\n");
    if (m.omittedSources() > 0 || m.omittedRecipients() > 0) {
      out.write("<p class=\"more\">Showing the top " + ReportView.plural(m.sources().size(), "source") + " and "
          + ReportView.plural(m.recipients().size(), "recipient") + "; " + m.omittedSources() + " more "
          + (m.omittedSources() == 1 ? "source" : "sources") + " and " + m.omittedRecipients() + " more "
          + (m.omittedRecipients() == 1 ? "recipient" : "recipients") + " are in report.json.</p>\n");
    }
    out.write("</section>\n");
  }

  private static void categories(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"categories\"><h2>Data categories</h2>\n");
    List<Map.Entry<String, Long>> categories = view.dataCategories();
    if (categories.isEmpty()) {
      out.write("<p class=\"empty\">No personal-data categories were recognised in leaked spans.</p>\n");
    } else {
      long max = categories.getFirst().getValue();
      out.write("<table class=\"narrow\"><thead><tr><th>Category</th><th class=\"num\">Responses</th></tr></thead><tbody>\n");
      for (Map.Entry<String, Long> c : categories) {
        out.write("<tr><td>" + Html.esc(c.getKey()) + "</td><td class=\"num\">" + bar(c.getValue(), Math.max(1, max), "victim")
            + "</td></tr>\n");
      }
      out.write("</tbody></table>\n");
    }
    out.write("</section>\n");
  }

  private static void coverage(Writer out, Coverage c) throws IOException {
    out.write("<section id=\"coverage\"><h2>Coverage</h2>\n");
    if (c == null) {
      out.write("<p class=\"empty\">Coverage was not measured; absence of findings proves little.</p>\n</section>\n");
      return;
    }
    out.write("<p>" + ReportView.number(c.requests()) + " requests seen; " + ReportView.number(c.requestsWithoutBodies())
        + " without prompt/response bodies (no text proof possible); " + ReportView.number(c.requestsWithoutEngineLogs())
        + " not joined to engine logs.</p>\n");
    if (c.gaps().isEmpty()) {
      out.write("<p class=\"empty\">No gaps in engine logs.</p>\n");
    } else {
      out.write("<table><thead><tr><th>Node</th><th>Start</th><th>End</th><th>Duration</th><th>Reason</th></tr></thead><tbody>\n");
      for (Coverage.Gap gap : c.gaps()) {
        out.write("<tr><td>" + Html.esc(ReportView.orDash(gap.node())) + "</td><td>" + ReportView.time(gap.start())
            + "</td><td>" + ReportView.time(gap.end()) + "</td><td>"
            + (gap.start() == null ? "-" : ReportView.duration(gap.start(), gap.end())) + "</td><td>"
            + Html.esc(ReportView.orDash(gap.reason())) + "</td></tr>\n");
      }
      out.write("</tbody></table>\n");
    }
    out.write("</section>\n");
  }

  private static void findings(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"findings\"><h2>Findings</h2>\n");
    List<Finding> top = view.topFindings();
    if (top.isEmpty()) {
      out.write("<p class=\"empty\">No findings.</p>\n</section>\n");
      return;
    }
    out.write("<p class=\"hint\">Most severe first: confidence, then kind, then tokens.</p>\n");
    out.write("<table class=\"findings\"><thead><tr><th class=\"num\">#</th><th>Confidence</th><th>Kind</th><th>Request</th>"
        + "<th>Tenant</th><th>Time</th><th>Node \u2192 decode</th><th>Source tenants</th><th class=\"num\">Tokens</th>"
        + "</tr></thead><tbody>\n");
    int i = 1;
    for (Finding f : top) {
      out.write("<tr><td class=\"num\">" + i++ + "</td><td><span class=\"badge " + f.confidence().id() + "\">"
          + f.confidence().id() + "</span></td><td class=\"kind\">" + f.kind().id().replace('_', ' ') + "</td><td class=\"id\">"
          + Html.esc(ReportView.orDash(f.requestId())) + "</td><td>" + Html.esc(ReportView.orDash(f.tenant())) + "</td><td>"
          + ReportView.time(f.time()) + "</td><td>" + Html.esc(ReportView.orDash(f.node()) + " \u2192 "
          + ReportView.orDash(f.decodeNode())) + "</td><td>" + Html.esc(String.join(", ", ReportView.sourceTenants(f)))
          + "</td><td class=\"num\">" + ReportView.number(f.matchedTokens()) + "</td></tr>\n");
    }
    out.write("</tbody></table>\n");
    if (view.moreFindings() > 0) {
      out.write("<p class=\"more\">\u2026 and " + ReportView.plural(view.moreFindings(), "more finding")
          + " in findings.csv, findings.ndjson, findings.arrow and report.json.</p>\n");
    }
    out.write("</section>\n");
  }

  private static void leakedContent(Writer out, ReportView view) throws IOException {
    if (!view.hasText()) {
      return;
    }
    boolean reveal = view.options().reveal();
    List<ReportView.LeakedSpan> spans = view.leakedContent();
    out.write("<section id=\"content\"><h2>Leaked content</h2>\n");
    out.write(reveal
        ? "<p class=\"warn\">Revealed: the text below is other customers' data. Handle this file accordingly.</p>\n"
        : "<p class=\"hint\">Redacted: each leaked span shows its hash, length, data categories and a masked shape"
            + " only (re-run with --reveal to see the text).</p>\n");
    if (spans.isEmpty()) {
      out.write("<p class=\"empty\">The top findings carry no text spans.</p>\n</section>\n");
      return;
    }
    out.write("<table class=\"content\"><thead><tr><th>Request</th><th>Source tenant</th><th>Span</th><th class=\"num\">Tokens</th>"
        + "<th>sha256</th><th class=\"num\">Chars</th><th>Categories</th><th>" + (reveal ? "Text" : "Masked excerpt")
        + "</th></tr></thead><tbody>\n");
    for (ReportView.LeakedSpan s : spans) {
      ContentRedactor.Shown shown = s.shown();
      out.write("<tr><td class=\"id\">" + Html.esc(s.finding().requestId()) + "</td><td>"
          + Html.esc(ReportView.orDash(s.source().tenant())) + "</td><td class=\"span\">" + s.span().responseStart() + "\u2013"
          + s.span().responseEnd() + "</td><td class=\"num\">" + s.span().tokens() + "</td><td><code>"
          + (shown == null ? "-" : shown.hash()) + "</code></td><td class=\"num\">"
          + (shown == null ? "-" : ReportView.number(shown.length())) + "</td><td>"
          + (shown == null ? "-" : Html.esc(String.join(", ", shown.categories()))) + "</td><td class=\"excerpt\">"
          + (shown == null ? "<span class=\"empty\">text not in index</span>" : Html.esc(shown.excerpt())) + "</td></tr>\n");
    }
    out.write("</tbody></table>\n</section>\n");
  }

  private static void parameters(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"parameters\"><h2>Parameters</h2>\n");
    Map<String, String> parameters = view.parameters();
    if (parameters.isEmpty()) {
      out.write("<p class=\"empty\">None recorded.</p>\n");
    } else {
      out.write("<table class=\"narrow params\"><tbody>\n");
      for (Map.Entry<String, String> p : parameters.entrySet()) {
        out.write("<tr><th>" + Html.esc(p.getKey()) + "</th><td><code>" + Html.esc(p.getValue()) + "</code></td></tr>\n");
      }
      out.write("</tbody></table>\n");
    }
    out.write("</section>\n");
  }

  private static final String CSS = """
      :root { --ink:#1f2933; --muted:#607080; --line:#e3e7eb; --bg:#f6f7f9; --red:#c62828; --amber:#ef6c00; }
      * { box-sizing: border-box; }
      body { margin:0; background:var(--bg); color:var(--ink);
        font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", "Liberation Sans", sans-serif; }
      main { max-width: 1240px; margin: 0 auto; padding: 24px 28px 48px; }
      header h1 { margin: 0 0 4px; font-size: 26px; letter-spacing: -0.01em; }
      .meta { margin: 0 0 18px; color: var(--muted); }
      h2 { font-size: 17px; margin: 0 0 10px; }
      section { background:#fff; border:1px solid var(--line); border-radius:8px; padding:16px 18px; margin:0 0 16px; }
      .status { border-left: 6px solid var(--red); }
      .status.over { border-left-color: #2e7d32; }
      .status h2 { font-size: 20px; color: var(--red); }
      .status.over h2 { color: #2e7d32; }
      .status ul { margin: 0; padding-left: 20px; }
      .cards { display:grid; grid-template-columns: repeat(5, 1fr); gap: 10px; background:none; border:none; padding:0; }
      .card { background:#fff; border:1px solid var(--line); border-radius:8px; padding:10px 12px; }
      .card .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
      .card .value { font-size: 26px; font-weight: 650; margin-top: 2px; font-variant-numeric: tabular-nums; }
      .card.time .value { font-size: 15px; margin-top: 8px; white-space: nowrap; }
      .t { white-space: nowrap; }
      .card.alert { border-color: #f2b8b5; background: #fff5f5; }
      .card.alert .value { color: var(--red); }
      .card.muted .value { color: var(--muted); font-size: 20px; margin-top: 6px; }
      .card .note { color: var(--muted); font-size: 12px; }
      table { border-collapse: collapse; width: 100%; font-size: 13px; }
      table.narrow { width: auto; min-width: 360px; }
      th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
      thead th { background: #f0f2f5; font-weight: 600; border-bottom: 1px solid #cfd6dd; }
      th.victim, th.recipient { text-align: center; }
      tr.group td { border-top: 2px solid #cfd6dd; }
      .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
      .meter { display: inline-block; width: 64px; height: 7px; margin-right: 8px; vertical-align: middle;
        background: #eef0f3; border-radius: 4px; overflow: hidden; }
      .meter + .n { display: inline-block; min-width: 4.5em; text-align: right; }
      .meter .fill { display: block; height: 100%; border-radius: 4px; }
      .fill.victim { background: #e57373; }
      .fill.recipient { background: #ffb74d; }
      .id { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; word-break: break-all; }
      table.content .id, table.content .span { white-space: nowrap; word-break: normal; }
      .kind { white-space: nowrap; }
      .badge { display:inline-block; padding: 1px 7px; border-radius: 10px; font-size: 12px; font-weight: 600; }
      .badge.confirmed { background: #fde0dc; color: #b71c1c; }
      .badge.probable { background: #ffe9cc; color: #a84300; }
      .badge.suspect { background: #eceff1; color: #455a64; }
      .badge.open { background: var(--red); color: #fff; }
      table.heat { width: auto; }
      table.heat th, table.heat td { border: 1px solid #fff; text-align: center; min-width: 54px; }
      table.heat tbody th { text-align: right; background: #f0f2f5; white-space: nowrap; }
      table.heat td { font-weight: 600; font-variant-numeric: tabular-nums; }
      table.heat td.zero { background: #f7f8fa; }
      table.heat th.corner { font-weight: 400; color: var(--muted); font-size: 11px; }
      .hint, .more, .empty { color: var(--muted); }
      .hint { margin: 0 0 8px; }
      .more { margin: 8px 0 0; font-style: italic; }
      .warn { background:#fff3e0; border:1px solid #ffcc80; padding: 6px 10px; border-radius: 6px; }
      .excerpt { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; white-space: pre-wrap; word-break: break-word; }
      .params th { font-weight: 500; white-space: nowrap; }
      code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
      svg.timeline { display: block; }
      svg .axis { font-size: 11px; fill: #607080; }
      svg .legend-note { font-size: 11px; fill: #607080; }
      svg .series { font-size: 12px; fill: #1f2933; font-weight: 600; }
      svg .series-total { font-size: 11px; fill: #607080; }
      svg .lane { font-size: 11px; fill: #1f2933; }
      svg .lane-title { font-size: 11px; fill: #607080; font-style: italic; }
      svg .exposure-lane { fill: #c62828; font-weight: 600; }
      svg .open-mark { font-size: 10px; fill: #5d4037; font-weight: 700; }
      @media print { body { background: #fff; } section { break-inside: avoid; } }
      """;
}

package io.kvscope.analysis.report;

import io.kvscope.model.finding.Finding;
import io.kvscope.analysis.impact.Coverage;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.EvidenceUsed;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.ReviewMatch;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.impact.Window;
import io.kvscope.ingest.KvscopeOutputs;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * report.html: the incident review as one self-contained page (inline CSS, SVG and one inline
 * script, no fonts or images to fetch; a Content-Security-Policy forbids loading anything and runs
 * only that script, by its hash) that can be mailed or opened offline: the "is it over?" banner,
 * summary cards, the timeline with vulnerable windows per node, window tables, tenants, the source
 * x recipient heat map, data categories, coverage, every finding (sorted, filtered and paged in the
 * page; all rows show without script) and the parameters. Leaked text only with {@code reveal}.
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
    out.write(KvscopeOutputs.HTML_GENERATOR_TAG + "\n"); // an ingest skips what carries it
    out.write("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src "
        + HtmlScript.CSP_HASH + "\">\n");
    out.write("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    boolean reveal = view.options().reveal();
    out.write(RevealedCopy.htmlMark(reveal) + "\n");
    out.write("<title>" + (reveal ? "REVEALED \u2014 " : "") + "kvscope incident report</title>\n<style>\n" + CSS
        + "</style>\n</head>\n<body" + (reveal ? " class=\"revealed\"" : "") + ">\n");
    if (reveal) {
      // A revealed copy must not pass for the redacted report at first sight: a banner that stays on screen.
      out.write("<div id=\"revealed-banner\" role=\"alert\">REVEALED: this copy shows the leaked text, other"
          + " customers' data. Do not send it on; the redacted reports are in the folder above.</div>\n");
    }
    out.write("<main>\n");
    out.write("<header><h1>kvscope incident report</h1><p class=\"meta\">Generated " + ReportView.time(report.generatedAt())
        + " \u00b7 index <code>" + Html.esc(report.index()) + "</code> \u00b7 report version "
        + Html.esc(report.reportVersion()) + " \u00b7 all times UTC</p></header>\n");
    headline(out, view.headline());
    cards(out, view);
    timeline(out, view);
    windows(out, view);
    tenants(out, view);
    matrix(out, view);
    categories(out, view);
    coverage(out, report.coverage());
    review(out, report);
    findings(out, view);
    leakedContent(out, view);
    evidence(out, view.report().evidence());
    parameters(out, view);
    out.write("</main>\n<script>" + HtmlScript.SOURCE + "</script>\n</body>\n</html>\n");
  }

  private static void headline(Writer out, ReportView.Headline h) throws IOException {
    out.write("<section class=\"status " + (h.over() ? "over" : "open") + "\" id=\"status\">\n<h2>"
        + Html.esc(h.title()) + "</h2>\n<ul>\n");
    for (String line : h.lines()) {
      out.write("<li>" + Html.times(Html.esc(line)) + "</li>\n");
    }
    out.write("</ul>\n</section>\n");
  }

  private static void cards(Writer out, ReportView view) throws IOException {
    Summary s = view.report().summary();
    out.write("<section class=\"cards\" id=\"summary\">\n");
    card(out, "alert", "Leaked responses", ReportView.number(s.leakedResponses()), "cross-tenant, confirmed + probable"
        + (s.leakedResponsesOwnTenantAlsoHeld() > 0 ? "; at least " + ReportView.number(s.leakedResponsesAtLeast())
            + " for sure" : ""));
    card(out, "muted", "For review", ReportView.number(s.reviewResponses()),
        "text shared with one other tenant, no leak mechanism in the logs; not counted");
    card(out, "", "Source requests", ReportView.range(s.sourceRequests(), s.sourceRequestsPossible()),
        s.sourceRequestsPossible() > s.sourceRequests() ? "whose data leaked: sure\u2013possible" : "whose data leaked");
    card(out, "", "Victim tenants", ReportView.range(s.victimTenants(), s.victimTenantsPossible()),
        s.victimTenantsPossible() > s.victimTenants() ? "lost data: sure\u2013possible" : "lost data");
    card(out, "", "Recipient tenants", ReportView.number(s.recipientTenants()), "received others' data");
    card(out, "", "Tokens exposed", ReportView.number(s.tokensExposed()), "attributed to other tenants");
    card(out, "", "Over-length accepted", ReportView.number(s.overLengthAccepted()), "answered despite the limit");
    card(out, "", "Prefill underruns", ReportView.number(s.prefillUnderruns()), "prefilled far less than sent");
    card(out, "muted", "Not counted", ReportView.number(s.suspectResponses()) + " / " + ReportView.number(s.sameTenantReuse()),
        "suspects (only weak evidence) / responses with only same-tenant reuse (see below)");
    card(out, "time", "First exposure", ReportView.time(s.firstExposure()), "");
    card(out, "time", "Last exposure", ReportView.time(s.lastExposure()), "");
    out.write("</section>\n");
    out.write("<p class=\"note counts\" id=\"same-tenant-note\">Same-tenant reuse: " + Html.esc(view.sameTenantNote())
        + "</p>\n");
  }

  private static void card(Writer out, String kind, String label, String value, String note) throws IOException {
    out.write("<div class=\"card " + kind + "\"><div class=\"label\">" + Html.esc(label) + "</div><div class=\"value\">"
        + Html.esc(value) + "</div>" + (note.isEmpty() ? "" : "<div class=\"note\">" + Html.esc(note) + "</div>")
        + "</div>\n");
  }

  private static void timeline(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"timeline\"><h2>Timeline</h2>\n");
    String svg = TimelineChart.svg(view.report(), view.vulnerableByNode(), view.exposureWindows());
    out.write(svg == null ? "<p class=\"empty\">Nothing to draw: no timeline and no windows.</p>\n"
        : "<div class=\"chart\">" + svg + "</div>\n");
    out.write("</section>\n");
  }

  private static void windows(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"vulnerable\"><h2>Vulnerable windows</h2>\n");
    Map<String, List<Window>> byNode = view.vulnerableByNode();
    if (byNode.isEmpty()) {
      out.write("<p class=\"empty\">No node ran a vulnerable configuration in the logs seen.</p>\n");
    } else {
      out.write("<div class=\"scroll\"><table><thead><tr><th>Node</th><th>Start</th><th>End</th><th>Duration</th><th class=\"num\">Requests served</th>"
          + "<th>Engine version</th><th>Reason</th></tr></thead><tbody>\n");
      for (Map.Entry<String, List<Window>> node : byNode.entrySet()) {
        boolean first = true;
        for (Window w : node.getValue()) {
          out.write("<tr" + (first ? " class=\"group\"" : "") + "><td class=\"nw\">" + (first ? Html.esc(node.getKey()) : "")
              + "</td><td>"
              + time(w.start()) + "</td><td>" + end(w) + "</td><td>" + ReportView.duration(w)
              + "</td><td class=\"num\">" + ReportView.number(w.count()) + "</td><td>"
              + (w.versionUnknown() ? "<strong class=\"unknown-version\">unknown</strong>" : Html.esc(ReportView.orDash(w.engineVersion())))
              + "</td><td>" + Html.esc(ReportView.orDash(w.reason())) + "</td></tr>\n");
          first = false;
        }
      }
      out.write("</tbody></table></div>\n");
      if (view.anyVersionUnknown()) {
        out.write("<p class=\"note\" id=\"unknown-version-note\">" + Html.esc(ReportView.UNKNOWN_VERSION_NOTE) + "</p>\n");
      }
    }
    out.write("</section>\n<section id=\"exposure\"><h2>Exposure windows</h2>\n");
    List<Window> exposures = view.exposureWindows();
    if (exposures.isEmpty()) {
      out.write("<p class=\"empty\">No leaked responses were found.</p>\n");
    } else {
      // The impact model groups exposure windows by decode node; a deployment column shows only when
      // the findings tell some window's deployment (else it would be "-" in every row).
      boolean deployments = view.exposuresNameDeployments();
      out.write("<p class=\"hint\">Leaked responses close in time on one decode node, grouped; a window of one"
          + " response starts and ends with it.</p>\n");
      out.write("<div class=\"scroll\"><table class=\"sortable\"><thead><tr>" + (deployments ? "<th>Deployment</th>" : "")
          + "<th>Decode node</th><th>Start</th><th>End</th><th>Duration</th>"
          + "<th class=\"num\">Leaked responses</th></tr></thead><tbody>\n");
      for (Window w : exposures) {
        out.write("<tr>" + (deployments ? "<td>" + Html.esc(view.deployment(w)) + "</td>" : "") + "<td>"
            + Html.esc(ReportView.orDash(w.node())) + "</td><td>" + time(w.start()) + "</td><td>" + end(w)
            + "</td><td data-sort=\"" + (w.end() == null ? Long.MAX_VALUE : java.time.Duration.between(w.start(), w.end()).toSeconds())
            + "\">" + ReportView.duration(w) + "</td><td class=\"num\">" + ReportView.number(w.count()) + "</td></tr>\n");
      }
      out.write("</tbody></table></div>\n");
    }
    out.write("</section>\n");
  }

  private static String end(Window w) {
    return w.open() ? "<span class=\"badge open\">open</span>" : time(w.end());
  }

  /** A timestamp that never breaks across lines (browsers break ISO times at hyphens). */
  private static String time(java.time.Instant t) {
    return "<span class=\"t\">" + ReportView.time(t) + "</span>";
  }

  /** A tenant or node name that may break after its separators instead of overflowing a narrow column. */
  /**
   * A link to a request's trace, after its id; nothing without one. The URL is escaped as an
   * attribute like any log value (its id part is already percent-encoded), and the page it opens
   * learns nothing of the report (no referrer, no opener).
   */
  private static String traceLink(String url) {
    return url == null ? "" : " <a class=\"trace\" href=\"" + Html.esc(url)
        + "\" target=\"_blank\" rel=\"noopener noreferrer\" title=\"open the trace in your tracing tool\">trace</a>";
  }

  private static String breakable(String name) {
    return Html.esc(name).replaceAll("([-_./@:])", "$1<wbr>");
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
        + " responses that carried other tenants' data. A range such as 2\u20135 means 2 for sure and up to 5: where"
        + " several requests held a leaked passage word for word, each is a possible source.</p>\n");
    out.write("<div class=\"scroll\"><table class=\"tenants\"><thead><tr><th rowspan=\"2\">Tenant</th><th colspan=\"3\" class=\"victim\">As victim</th>"
        + "<th colspan=\"3\" class=\"recipient\">As recipient</th></tr><tr><th class=\"num\">Requests</th>"
        + "<th class=\"num\">Responses carrying them</th><th class=\"num\">Tokens</th><th class=\"num\">Responses</th>"
        + "<th class=\"num\">Source requests</th><th class=\"num\">Tokens</th></tr></thead><tbody>\n");
    for (TenantImpact t : tenants) {
      out.write("<tr><td>" + breakable(ReportView.orDash(t.tenant())) + "</td><td class=\"num\">"
          + ReportView.range(t.asVictim().requests(), t.asVictim().requestsPossible()) + "</td><td class=\"num\">"
          + ReportView.range(t.asVictim().recipients(), t.asVictim().recipientsPossible())
          + "</td><td class=\"num\">" + bar(t.asVictim().tokens(), maxTokens, "victim")
          + possibleMore(t.asVictim().tokens(), t.asVictim().tokensPossible()) + "</td><td class=\"num\">"
          + ReportView.number(t.asRecipient().responses()) + "</td><td class=\"num\">"
          + ReportView.range(t.asRecipient().sources(), t.asRecipient().sourcesPossible())
          + "</td><td class=\"num\">" + bar(t.asRecipient().tokens(), maxTokens, "recipient") + "</td></tr>\n");
    }
    out.write("</tbody></table></div>\n");
    if (view.moreTenants() > 0) {
      out.write("<p class=\"more\">\u2026 and " + ReportView.plural(view.moreTenants(), "more tenant")
          + " in report.json.</p>\n");
    }
    out.write("</section>\n");
  }

  /** {@code  (up to N)} when candidates add to a sure count, else nothing. */
  private static String possibleMore(long certain, long possible) {
    return possible > certain ? "<span class=\"possible\"> (up to " + ReportView.number(possible) + ")</span>" : "";
  }

  /** A number after a small meter showing it against the column's largest. */
  private static String bar(long value, long max, String kind) {
    int pct = (int) Math.round(100.0 * value / Math.max(1, max));
    return "<span class=\"meter\"><span class=\"fill " + kind + "\" style=\"width:" + pct + "%\"></span></span>"
        + "<span class=\"n\">" + ReportView.number(value) + "</span>";
  }

  private static void matrix(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"matrix\"><h2>Source \u00d7 recipient</h2>\n");
    ReportView.Matrix m = view.matrix(ReportView.HTML_MATRIX_ROWS, ReportView.HTML_MATRIX_COLUMNS);
    if (m.sources().isEmpty()) {
      out.write("<p class=\"empty\">No data crossed between tenants.</p>\n</section>\n");
      return;
    }
    out.write("<p class=\"hint\">Rows: whose data leaked (source). Columns: who received it. Cells: responses,"
        + " as a range where a source tenant is only one of several possible (hover for tokens).</p>\n");
    out.write("<div class=\"scroll\"><table class=\"heat\"><thead><tr><th class=\"corner\">source \u2193 / recipient \u2192</th>");
    for (String r : m.recipients()) {
      out.write("<th title=\"" + Html.esc(r) + "\">" + breakable(r) + "</th>");
    }
    out.write("</tr></thead><tbody>\n");
    for (String s : m.sources()) {
      out.write("<tr><th>" + breakable(s) + "</th>");
      for (String r : m.recipients()) {
        MatrixCell c = m.cell(s, r);
        if (c == null || c.responsesPossible() == 0) {
          out.write("<td class=\"zero\"></td>");
        } else {
          double intensity = 0.12 + 0.88 * c.responsesPossible() / Math.max(1, m.maxResponses());
          String count = ReportView.range(c.responses(), c.responsesPossible());
          out.write(String.format(Locale.ROOT,
              "<td style=\"background:rgba(198,40,40,%.2f);color:%s\" title=\"%s \u2192 %s: %s (%d for sure),"
                  + " %s tokens\">%s</td>",
              intensity, intensity > 0.55 ? "#fff" : "#3e2723", Html.esc(s), Html.esc(r),
              ReportView.range(c.responses(), c.responsesPossible(), "response"), c.responses(),
              ReportView.number(c.tokens()), count));
        }
      }
      out.write("</tr>\n");
    }
    out.write("</tbody></table></div>\n");
    if (m.omittedSources() > 0 || m.omittedRecipients() > 0) {
      out.write("<p class=\"more\" id=\"matrix-more\">The grid shows the top " + ReportView.plural(m.sources().size(), "source")
          + " and " + ReportView.plural(m.recipients().size(), "recipient") + "; " + m.omittedSources() + " more "
          + (m.omittedSources() == 1 ? "source" : "sources") + " and " + m.omittedRecipients() + " more "
          + (m.omittedRecipients() == 1 ? "recipient" : "recipients") + " are in the list of every pair below.</p>\n");
      pairs(out, m.allPairs());
    }
    out.write("</section>\n");
  }

  /** Every source x recipient pair with data, as a sortable list (the grid only holds the top tenants). */
  private static void pairs(Writer out, List<MatrixCell> pairs) throws IOException {
    out.write("<details id=\"matrix-pairs\"><summary>Every pair (" + ReportView.plural(pairs.size(), "pair")
        + ")</summary>\n<div class=\"scroll\"><table class=\"sortable narrow\"><thead><tr><th>Source tenant</th>"
        + "<th>Recipient tenant</th><th class=\"num\">Responses</th><th class=\"num\">Tokens</th></tr></thead><tbody>\n");
    for (MatrixCell c : pairs) {
      out.write("<tr><td>" + breakable(c.sourceTenant()) + "</td><td>" + breakable(c.recipientTenant())
          + "</td><td class=\"num\">" + ReportView.range(c.responses(), c.responsesPossible()) + "</td><td class=\"num\">"
          + ReportView.number(c.tokens()) + "</td></tr>\n");
    }
    out.write("</tbody></table></div>\n</details>\n");
  }

  private static void categories(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"categories\"><h2>Data categories</h2>\n");
    List<Map.Entry<String, Long>> categories = view.dataCategories();
    if (categories.isEmpty()) {
      out.write("<p class=\"empty\">No personal-data categories were recognised in leaked spans.</p>\n");
    } else {
      long max = categories.getFirst().getValue();
      out.write("<div class=\"scroll\"><table class=\"narrow\"><thead><tr><th>Category</th><th class=\"num\">Responses</th></tr></thead><tbody>\n");
      for (Map.Entry<String, Long> c : categories) {
        out.write("<tr><td>" + Html.esc(c.getKey()) + "</td><td class=\"num\">" + bar(c.getValue(), Math.max(1, max), "victim")
            + "</td></tr>\n");
      }
      out.write("</tbody></table></div>\n");
    }
    out.write("</section>\n");
  }

  private static void review(Writer out, Report report) throws IOException {
    out.write("<section id=\"review\"><h2>" + Html.esc(ReportView.REVIEW_TITLE) + "</h2>\n");
    if (report.review().isEmpty()) {
      out.write("<p class=\"empty\">None.</p>\n</section>\n");
      return;
    }
    out.write("<p>" + Html.esc(ReportView.REVIEW_NOTE) + "</p>\n");
    out.write("<div class=\"scroll\"><table><thead><tr><th>Request</th><th>Tenant</th><th>Time</th><th>Other tenants</th><th>Their requests</th>"
        + "<th class=\"num\">Words</th><th>Finding</th></tr></thead><tbody>\n");
    for (ReviewMatch r : report.review()) {
      out.write("<tr><td>" + Html.esc(r.requestId()) + "</td><td>" + Html.esc(ReportView.orDash(r.tenant())) + "</td><td>"
          + ReportView.time(r.time()) + "</td><td>" + Html.esc(String.join(", ", r.sourceTenants())) + "</td><td>"
          + Html.esc(String.join(", ", r.sourceRequests())) + "</td><td class=\"num\">" + ReportView.number(r.words())
          + "</td><td>" + Html.esc(r.findingId()) + "</td></tr>\n");
    }
    out.write("</tbody></table></div>\n</section>\n");
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
      out.write("<div class=\"scroll\"><table><thead><tr><th>Node</th><th>Start</th><th>End</th><th>Duration</th><th>Reason</th></tr></thead><tbody>\n");
      for (Coverage.Gap gap : c.gaps()) {
        out.write("<tr><td>" + Html.esc(ReportView.orDash(gap.node())) + "</td><td>" + ReportView.time(gap.start())
            + "</td><td>" + ReportView.time(gap.end()) + "</td><td>"
            + (gap.start() == null ? "-" : ReportView.duration(gap.start(), gap.end())) + "</td><td>"
            + Html.esc(ReportView.orDash(gap.reason())) + "</td></tr>\n");
      }
      out.write("</tbody></table></div>\n");
    }
    out.write("</section>\n");
  }

  private static void findings(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"findings\"><h2>Findings</h2>\n");
    List<Finding> all = view.allFindings();
    if (all.isEmpty()) {
      out.write("<p class=\"empty\">No findings.</p>\n</section>\n");
      return;
    }
    out.write("<p class=\"hint\">Every finding, most severe first (confidence, then kind, then tokens). Click a column"
        + " header to sort by it; # keeps the severity rank.</p>\n");
    findingControls(out, all);
    out.write("<div class=\"scroll\"><table class=\"findings sortable\" id=\"findings-table\"><thead><tr>"
        + "<th class=\"num\">#</th><th>Confidence</th><th>Kind</th><th>Request</th><th>Tenant</th><th>Time</th>"
        + "<th>Node \u2192 decode</th><th>Source tenants</th><th class=\"num\">Tokens</th></tr></thead><tbody>\n");
    int i = 1;
    for (Finding f : all) {
      out.write("<tr data-confidence=\"" + f.confidence().id() + "\" data-kind=\"" + f.kind().id() + "\"><td class=\"num\">"
          + i++ + "</td><td data-sort=\"" + f.confidence().ordinal() + "\"><span class=\"badge " + f.confidence().id() + "\">"
          + f.confidence().id() + "</span></td><td class=\"kind\">" + Html.esc(f.kind().label()) + "</td><td class=\"id\">"
          + Html.esc(ReportView.orDash(f.requestId())) + traceLink(view.traceUrl(f)) + "</td><td>"
          + breakable(ReportView.orDash(f.tenant())) + "</td><td>" + time(f.time()) + "</td><td><span class=\"nw\">" + Html.esc(ReportView.orDash(f.node()))
          + "</span> \u2192 <span class=\"nw\">" + Html.esc(ReportView.orDash(f.decodeNode())) + "</span></td><td>"
          + breakable(String.join(", ", ReportView.sourceTenants(f)))
          + "</td><td class=\"num\">" + ReportView.number(view.tokensOf(f)) + "</td></tr>\n");
    }
    out.write("</tbody></table></div>\n");
    int more = view.report().findings().size() - all.size();
    if (more > 0) {
      out.write("<p class=\"more\">\u2026 and " + ReportView.plural(more, "more finding")
          + " (the least severe) in findings.csv, findings.ndjson, findings.arrow and report.json.</p>\n");
    }
    out.write("</section>\n");
  }

  /** The filter and pager of the findings table; hidden until the page's script shows them. */
  private static void findingControls(Writer out, List<Finding> all) throws IOException {
    java.util.Map<String, Long> confidences = new java.util.TreeMap<>();
    java.util.Map<io.kvscope.model.finding.FindingKind, Long> kinds = new java.util.TreeMap<>();
    for (Finding f : all) {
      confidences.merge(f.confidence().id(), 1L, Long::sum);
      kinds.merge(f.kind(), 1L, Long::sum);
    }
    out.write("<div class=\"controls\" id=\"findings-controls\" hidden>\n<label>Confidence <select id=\"f-confidence\">"
        + "<option value=\"\">any</option>");
    for (io.kvscope.model.finding.Confidence c : io.kvscope.model.finding.Confidence.values()) {
      if (confidences.containsKey(c.id())) {
        out.write("<option value=\"" + c.id() + "\">" + c.id() + " (" + confidences.get(c.id()) + ")</option>");
      }
    }
    out.write("</select></label>\n<label>Kind <select id=\"f-kind\"><option value=\"\">any</option>");
    for (var k : kinds.entrySet()) {
      out.write("<option value=\"" + k.getKey().id() + "\">" + Html.esc(k.getKey().label()) + " (" + k.getValue() + ")</option>");
    }
    out.write("</select></label>\n<label>Contains <input id=\"f-text\" type=\"search\" size=\"18\""
        + " placeholder=\"request, tenant, node\"></label>\n<label>Rows <select id=\"f-size\"><option value=\"25\">25</option>"
        + "<option value=\"50\" selected>50</option><option value=\"200\">200</option><option value=\"0\">all</option>"
        + "</select></label>\n<span class=\"pager\"><button type=\"button\" id=\"f-prev\">\u2039 Previous</button>"
        + "<button type=\"button\" id=\"f-next\">Next \u203a</button></span>\n<span id=\"f-status\" class=\"status-text\""
        + " aria-live=\"polite\"></span>\n</div>\n");
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
        : "<p class=\"hint\" id=\"redaction-note\">Redacted: the text of each leaked span is hidden. Each row gives"
            + " its hash, its length in characters and the data categories found in it; the excerpt shows only the"
            + " shape of its first characters (each word keeps its first letter, other letters become *, digits #,"
            + " recognised identifiers their category in brackets). To see the text, run this in the folder of this"
            + " report: <code>" + Html.esc(RevealedCopy.command(view.report().index())) + "</code>. It writes a"
            + " revealed copy into the folder <code>" + RevealedCopy.FOLDER + "/</code> beside this file; the redacted"
            + " reports stay as they are.</p>\n");
    out.write("<p class=\"hint\">Spans are character offsets into the recipient's response text (start inclusive,"
        + " end exclusive); tokens are the response tokens attributed to the source.</p>\n");
    if (spans.isEmpty()) {
      out.write("<p class=\"empty\">The top findings carry no text spans.</p>\n</section>\n");
      return;
    }
    out.write("<div class=\"scroll\"><table class=\"content\"><thead><tr><th>Request</th><th>Source tenant</th>"
        + "<th>Response chars</th><th class=\"num\">Tokens</th><th>Keyed hash</th><th class=\"num\">Chars</th>"
        + "<th>Categories</th><th>" + (reveal ? "Text" : "Masked excerpt") + "</th></tr></thead><tbody>\n");
    for (ReportView.LeakedSpan s : spans) {
      ContentRedactor.Shown shown = s.shown();
      out.write("<tr><td class=\"id\">" + Html.esc(s.finding().requestId()) + "</td><td>"
          + breakable(ReportView.orDash(s.source().tenant())) + "</td><td class=\"span\">chars "
          + ReportView.number(s.span().responseStart()) + "\u2013" + ReportView.number(s.span().responseEnd())
          + Html.esc(s.span().copiesNamed()) + "</td><td class=\"num\">" + s.span().tokens() + "</td><td><code>"
          + (shown == null ? "-" : shown.hash()) + "</code></td><td class=\"num\">"
          + (shown == null ? "-" : ReportView.number(shown.length())) + "</td><td>"
          + (shown == null ? "-" : Html.esc(String.join(", ", shown.categories()))) + "</td><td class=\"excerpt\">"
          + (shown == null ? "<span class=\"empty\">" + Html.esc(s.notShown()) + "</span>" : excerpt(shown)) + "</td></tr>\n");
    }
    out.write("</tbody></table></div>\n</section>\n");
  }

  /** The revealed text, or the masked shape after a line saying what it hides. */
  private static String excerpt(ContentRedactor.Shown shown) {
    if (shown.revealed()) {
      return Html.esc(shown.excerpt());
    }
    String what = ReportView.number(shown.length()) + " chars hidden"
        + (shown.categories().isEmpty() ? ", no identifier recognised" : ", with " + String.join(", ", shown.categories()))
        + "; the shape of its start:";
    return "<span class=\"hidden-note\">" + Html.esc(what) + "</span>" + Html.esc(shown.excerpt());
  }

  /** The files the figures rest on, with their hashes, and the kvscope that drew them. */
  private static void evidence(Writer out, EvidenceUsed evidence) throws IOException {
    out.write("<section id=\"evidence\"><h2>Evidence used</h2>\n<p class=\"hint\">" + Html.esc(ReportView.evidenceLine(evidence))
        + "</p>\n");
    if (!evidence.files().isEmpty()) {
      out.write("<div class=\"scroll\"><table class=\"evidence\"><thead><tr><th>File</th><th>Format</th>"
          + "<th class=\"num\">Bytes</th><th>SHA-256</th><th class=\"num\">Records</th><th class=\"num\">Rejected</th>"
          + "</tr></thead><tbody>\n");
      for (EvidenceUsed.File f : evidence.files()) {
        out.write("<tr><td><code>" + Html.esc(f.path()) + "</code></td><td>" + Html.esc(f.format()) + "</td><td class=\"num\">"
            + ReportView.number(f.bytes()) + "</td><td><code class=\"hash\">" + Html.esc(ReportView.hashOf(f))
            + "</code></td><td class=\"num\">" + ReportView.number(f.records()) + "</td><td class=\"num\">"
            + ReportView.number(f.rejected()) + "</td></tr>\n");
      }
      out.write("</tbody></table></div>\n");
    }
    out.write("</section>\n");
  }

  private static void parameters(Writer out, ReportView view) throws IOException {
    out.write("<section id=\"parameters\"><h2>Parameters</h2>\n");
    Map<String, String> parameters = view.parameters();
    if (parameters.isEmpty()) {
      out.write("<p class=\"empty\">None recorded.</p>\n");
    } else {
      out.write("<div class=\"scroll\"><table class=\"params\"><tbody>\n");
      for (Map.Entry<String, String> p : parameters.entrySet()) {
        out.write("<tr><th>" + Html.esc(p.getKey()) + "</th><td><code>" + Html.esc(p.getValue()) + "</code></td></tr>\n");
      }
      out.write("</tbody></table></div>\n");
    }
    out.write("</section>\n");
  }

  private static final String CSS = """
      :root { --ink:#1f2933; --muted:#607080; --line:#e3e7eb; --bg:#f6f7f9; --red:#c62828; --amber:#ef6c00; }
      * { box-sizing: border-box; }
      body { margin:0; background:var(--bg); color:var(--ink);
        font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", "Liberation Sans", sans-serif; }
      main { max-width: 1240px; margin: 0 auto; padding: 24px 28px 48px; }
      body.revealed { border: 6px solid var(--red); }
      code.hash { word-break: break-all; font-size: 11px; }
      #revealed-banner { position: sticky; top: 0; z-index: 10; background: var(--red); color: #fff; font-weight: 700;
        padding: 10px 28px; text-align: center; }
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
      .id a.trace { font-family: system-ui, sans-serif; white-space: nowrap; }
      .kind, .nw { white-space: nowrap; }
      td.excerpt { min-width: 240px; }
      .badge { display:inline-block; padding: 1px 7px; border-radius: 10px; font-size: 12px; font-weight: 600; }
      .badge.confirmed { background: #fde0dc; color: #b71c1c; }
      .badge.probable { background: #ffe9cc; color: #a84300; }
      .badge.suspect { background: #eceff1; color: #455a64; }
      .badge.open { background: var(--red); color: #fff; }
      table.heat { width: auto; }
      table.heat th, table.heat td { border: 1px solid #fff; text-align: center; min-width: 54px; }
      table.heat thead th { max-width: 130px; vertical-align: bottom; font-size: 12px; overflow-wrap: anywhere; }
      table.heat tbody th { text-align: right; background: #f0f2f5; }
      table.heat td { font-weight: 600; font-variant-numeric: tabular-nums; }
      table.heat td.zero { background: #f7f8fa; }
      table.heat th.corner { font-weight: 400; color: var(--muted); font-size: 11px; }
      .hint, .more, .empty { color: var(--muted); }
      .hint { margin: 0 0 8px; }
      .more { margin: 8px 0 0; font-style: italic; }
      .warn { background:#fff3e0; border:1px solid #ffcc80; padding: 6px 10px; border-radius: 6px; }
      .excerpt { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; white-space: pre-wrap; word-break: break-word; }
      table.params { table-layout: fixed; }
      .params th { font-weight: 500; width: 230px; overflow-wrap: anywhere; }
      .params code { white-space: pre-wrap; overflow-wrap: anywhere; }
      code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
      svg.timeline { display: block; }
      svg .axis { font-size: 12px; fill: #607080; }
      svg .legend-note { font-size: 12px; fill: #607080; }
      svg .series { font-size: 12px; fill: #1f2933; font-weight: 600; }
      svg .series-total { font-size: 11px; fill: #607080; }
      svg .lane { font-size: 12px; fill: #1f2933; }
      svg .lane-title { font-size: 11px; fill: #607080; font-style: italic; }
      svg .exposure-lane { fill: #c62828; font-weight: 600; }
      svg .open-mark { font-size: 10px; fill: #5d4037; font-weight: 700; }
      .chart, .scroll { overflow-x: auto; }
      .chart svg.timeline { min-width: 980px; }
      .note.counts { margin: -4px 2px 16px; color: var(--muted); font-size: 13px; }
      .controls { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin: 0 0 10px; }
      .controls[hidden] { display: none; }
      .controls select, .controls input, .controls button { font: inherit; font-size: 13px; padding: 2px 6px; }
      .pager button { margin-right: 4px; }
      .status-text { color: var(--muted); }
      th.sort { cursor: pointer; user-select: none; }
      th.sort[aria-sort=ascending]::after { content: " \\25b2"; font-size: 9px; }
      th.sort[aria-sort=descending]::after { content: " \\25bc"; font-size: 9px; }
      details summary { cursor: pointer; color: #1a5fb4; margin: 6px 0; }
      .hidden-note { display: block; font-family: system-ui, sans-serif; color: var(--muted); font-size: 11px; }
      @media (max-width: 1000px) {
        main { padding: 16px 14px 32px; }
        section { padding: 12px 12px; }
        .cards { grid-template-columns: repeat(4, 1fr); }
        .card.time { grid-column: span 2; }
        .meter { display: none; }
        .meter + .n { min-width: 0; }
        table { font-size: 12px; }
        th, td { padding: 4px 5px; }
        table.findings .kind, table.findings .nw { white-space: normal; }
      }
      /* A phone held upright: cards two abreast, the timeline fitted to the screen (all of it in view;
         hover or tap a bar for its numbers), wide tables scrolling inside their section, never the page. */
      @media (max-width: 600px) {
        main { padding: 12px 8px 24px; }
        section { padding: 10px 8px; }
        header h1 { font-size: 22px; }
        .meta { overflow-wrap: anywhere; }
        .cards { grid-template-columns: repeat(2, minmax(0, 1fr)); }
        .card.time { grid-column: span 2; }
        .card .value { font-size: 22px; overflow-wrap: anywhere; }
        .chart svg.timeline { min-width: 0; }
        .status, .status ul { overflow-wrap: anywhere; }
        .scroll { max-width: 100%; }
        table.narrow { min-width: 0; }
      }
      @media print { body { background: #fff; } section { break-inside: avoid; } }
      """;
}

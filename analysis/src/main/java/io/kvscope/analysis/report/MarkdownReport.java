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
import java.util.Map;

/**
 * report.md: the incident review in Markdown, in the order a reviewer asks: is it over, how big,
 * which nodes were vulnerable when, who lost data to whom, what kind of data, what the logs could
 * not show, the worst findings, and the parameters behind every number. Leaked text appears only
 * with {@code reveal}; otherwise as {@link ContentRedactor} shows it.
 */
public final class MarkdownReport {

  public static final String FILE_NAME = Format.MARKDOWN.fileName();

  private MarkdownReport() {}

  public static Path write(Report report, Path target, WriteOptions options) throws IOException {
    ReportView view = new ReportView(report, options);
    return AtomicFile.writeText(target, out -> write(view, out));
  }

  static void write(ReportView view, Writer out) throws IOException {
    Report report = view.report();
    Md md = new Md(out);
    md.line(KvscopeOutputs.REPORT_MARKDOWN_TITLE); // also the mark an ingest skips the file by
    boolean reveal = view.options().reveal();
    md.line(RevealedCopy.markdownMark(reveal));
    md.line();
    if (reveal) {
      md.line("> **REVEALED**: this copy shows the leaked text, other customers' data. Do not send it on; the"
          + " redacted reports are in the folder above.");
      md.line();
    }
    md.line("Generated " + ReportView.time(report.generatedAt()) + " from index " + md.code(report.index())
        + " (report version " + md.esc(report.reportVersion()) + "). Times are UTC.");
    md.line();

    ReportView.Headline headline = view.headline();
    md.line("## Is it over?");
    md.line();
    md.line("**" + md.esc(headline.title()) + ".**");
    md.line();
    for (String line : headline.lines()) {
      md.line("- " + md.esc(line));
    }
    md.line();

    summary(md, view);
    windows(md, view);
    tenants(md, view);
    matrix(md, view);
    categories(md, view);
    coverage(md, report.coverage());
    review(md, report);
    findings(md, view);
    leakedContent(md, view);
    evidence(md, view.report().evidence());
    parameters(md, view);
  }

  /** The files the figures rest on, with their hashes, and the kvscope that drew them. */
  private static void evidence(Md md, EvidenceUsed evidence) throws IOException {
    md.line("## Evidence used");
    md.line();
    md.line(md.esc(ReportView.evidenceLine(evidence)));
    md.line();
    if (evidence.files().isEmpty()) {
      return;
    }
    md.row("File", "Format", "Bytes", "SHA-256", "Records", "Rejected");
    md.line("|---|---|---:|---|---:|---:|");
    for (EvidenceUsed.File f : evidence.files()) {
      md.row(md.codeCell(f.path()), md.esc(f.format()), ReportView.number(f.bytes()), md.codeCell(ReportView.hashOf(f)),
          ReportView.number(f.records()), ReportView.number(f.rejected()));
    }
    md.line();
  }

  private static void summary(Md md, ReportView view) throws IOException {
    Summary s = view.report().summary();
    md.line("## Summary");
    md.line();
    md.line("Counts are distinct requests or tenants, cross-tenant, confirmed + probable.");
    md.line();
    md.row("Measure", "Value");
    md.line("|---|---:|");
    md.row("Leaked responses", ReportView.number(s.leakedResponses()));
    md.row("Of which the recipient's own tenant also held all that leaked (may be its own data)",
        ReportView.number(s.leakedResponsesOwnTenantAlsoHeld()));
    md.row("Source requests (whose data leaked; sure\u2013possible)", ReportView.range(s.sourceRequests(), s.sourceRequestsPossible()));
    md.row("Victim tenants (sure\u2013possible)", ReportView.range(s.victimTenants(), s.victimTenantsPossible()));
    md.row("Recipient tenants", ReportView.number(s.recipientTenants()));
    md.row("Tokens exposed", ReportView.number(s.tokensExposed()));
    md.row("Over-length prompts accepted", ReportView.number(s.overLengthAccepted()));
    md.row("Prefill underruns", ReportView.number(s.prefillUnderruns()));
    md.row("First exposure", ReportView.time(s.firstExposure()));
    md.row("Last exposure", ReportView.time(s.lastExposure()));
    md.row("Suspect responses (only weak evidence: timing, or an answer other tenants also received; not counted)", ReportView.number(s.suspectResponses()));
    md.row("Responses with only same-tenant reuse (not counted)", ReportView.number(s.sameTenantReuse()));
    md.row("For review: text shared with one other tenant, no leak mechanism in the logs (not counted)",
        ReportView.number(s.reviewResponses()));
    md.row("Requests whose logged copies disagree on a text (every copy analyzed)",
        ReportView.number(s.requestsWithDisagreeingCopies()));
    md.line();
    md.line("Same-tenant reuse: " + md.esc(view.sameTenantNote()));
    md.line();
  }

  private static void windows(Md md, ReportView view) throws IOException {
    md.line("## Vulnerable windows");
    md.line();
    Map<String, List<Window>> byNode = view.vulnerableByNode();
    if (byNode.isEmpty()) {
      md.line("No node ran a vulnerable configuration in the logs seen.");
      md.line();
    }
    for (Map.Entry<String, List<Window>> node : byNode.entrySet()) {
      md.line("### " + md.esc(node.getKey()));
      md.line();
      md.row("Start", "End", "Duration", "Requests served", "Engine version", "Reason");
      md.line("|---|---|---|---:|---|---|");
      for (Window w : node.getValue()) {
        md.row(ReportView.time(w.start()), w.open() ? "**open**" : ReportView.time(w.end()),
            ReportView.duration(w), ReportView.number(w.count()),
            w.versionUnknown() ? "**unknown**" : md.esc(ReportView.orDash(w.engineVersion())),
            md.esc(ReportView.orDash(w.reason())));
      }
      md.line();
    }
    if (view.anyVersionUnknown()) {
      md.line(md.esc(ReportView.UNKNOWN_VERSION_NOTE));
      md.line();
    }
    md.line("## Exposure windows");
    md.line();
    List<Window> exposures = view.exposureWindows();
    if (exposures.isEmpty()) {
      md.line("No leaked responses were found.");
    } else {
      // Grouped by decode node; a deployment column only when some window names one.
      if (view.exposuresNameDeployments()) {
        md.row("Deployment", "Decode node", "Start", "End", "Duration", "Leaked responses");
        md.line("|---|---|---|---|---|---:|");
      } else {
        md.row("Decode node", "Start", "End", "Duration", "Leaked responses");
        md.line("|---|---|---|---|---:|");
      }
      for (Window w : exposures) {
        List<String> cells = new java.util.ArrayList<>();
        if (view.exposuresNameDeployments()) {
          cells.add(md.esc(view.deployment(w)));
        }
        cells.addAll(List.of(md.esc(ReportView.orDash(w.node())), ReportView.time(w.start()),
            w.open() ? "**open**" : ReportView.time(w.end()), ReportView.duration(w), ReportView.number(w.count())));
        md.row(cells.toArray(String[]::new));
      }
    }
    md.line();
  }

  private static void tenants(Md md, ReportView view) throws IOException {
    md.line("## Tenants");
    md.line();
    List<TenantImpact> tenants = view.tenants();
    if (tenants.isEmpty()) {
      md.line("No tenant lost or received data.");
      md.line();
      return;
    }
    md.line("As victim: their requests whose data other tenants received. As recipient: their responses"
        + " that carried other tenants' data. A range such as 2\u20135 means 2 for sure and up to 5: where several"
        + " requests held a leaked passage word for word, each is a possible source.");
    md.line();
    md.row("Tenant", "Victim: requests", "Victim: responses carrying them", "Victim: tokens",
        "Recipient: responses", "Recipient: source requests", "Recipient: tokens");
    md.line("|---|---:|---:|---:|---:|---:|---:|");
    for (TenantImpact t : tenants) {
      md.row(md.esc(ReportView.orDash(t.tenant())),
          ReportView.range(t.asVictim().requests(), t.asVictim().requestsPossible()),
          ReportView.range(t.asVictim().recipients(), t.asVictim().recipientsPossible()),
          ReportView.range(t.asVictim().tokens(), t.asVictim().tokensPossible()),
          ReportView.number(t.asRecipient().responses()),
          ReportView.range(t.asRecipient().sources(), t.asRecipient().sourcesPossible()),
          ReportView.number(t.asRecipient().tokens()));
    }
    if (view.moreTenants() > 0) {
      md.line();
      md.line("\u2026 and " + ReportView.plural(view.moreTenants(), "more tenant") + " (see report.json `tenants`).");
    }
    md.line();
  }

  private static void matrix(Md md, ReportView view) throws IOException {
    md.line("## Source \u00d7 recipient");
    md.line();
    ReportView.Matrix matrix = view.matrix();
    if (matrix.topPairs().isEmpty()) {
      md.line("No data crossed between tenants.");
      md.line();
      return;
    }
    md.line("Whose data (source) reached whom (recipient), largest first.");
    md.line();
    md.row("Source tenant", "Recipient tenant", "Responses", "Tokens");
    md.line("|---|---|---:|---:|");
    for (MatrixCell c : matrix.topPairs()) {
      md.row(md.esc(c.sourceTenant()), md.esc(c.recipientTenant()), ReportView.range(c.responses(), c.responsesPossible()),
          ReportView.number(c.tokens()));
    }
    if (matrix.omittedPairs() > 0) {
      md.line();
      md.line("\u2026 and " + ReportView.plural(matrix.omittedPairs(), "more pair") + " (see report.json `matrix`).");
    }
    md.line();
  }

  private static void categories(Md md, ReportView view) throws IOException {
    md.line("## Data categories");
    md.line();
    List<Map.Entry<String, Long>> categories = view.dataCategories();
    if (categories.isEmpty()) {
      md.line("No personal-data categories were recognised in leaked spans.");
    } else {
      md.row("Category", "Responses");
      md.line("|---|---:|");
      for (Map.Entry<String, Long> c : categories) {
        md.row(md.esc(c.getKey()), ReportView.number(c.getValue()));
      }
    }
    md.line();
  }

  private static void review(Md md, Report report) throws IOException {
    md.line("## " + ReportView.REVIEW_TITLE);
    md.line();
    if (report.review().isEmpty()) {
      md.line("None.");
      md.line();
      return;
    }
    md.line(md.esc(ReportView.REVIEW_NOTE));
    md.line();
    md.row("Request", "Tenant", "Time", "Other tenants", "Their requests", "Words", "Finding");
    md.line("|---|---|---|---|---|---:|---|");
    for (ReviewMatch r : report.review()) {
      md.row(md.esc(r.requestId()), md.esc(ReportView.orDash(r.tenant())), ReportView.time(r.time()),
          md.esc(String.join(", ", r.sourceTenants())), md.esc(String.join(", ", r.sourceRequests())),
          ReportView.number(r.words()), md.esc(r.findingId()));
    }
    md.line();
  }

  private static void coverage(Md md, Coverage c) throws IOException {
    md.line("## Coverage");
    md.line();
    if (c == null) {
      md.line("Coverage was not measured; absence of findings proves little.");
      md.line();
      return;
    }
    md.line(ReportView.number(c.requests()) + " requests seen; " + ReportView.number(c.requestsWithoutBodies())
        + " without prompt/response bodies (no text proof possible); " + ReportView.number(c.requestsWithoutEngineLogs())
        + " not joined to engine logs.");
    md.line();
    if (c.gaps().isEmpty()) {
      md.line("No gaps in engine logs.");
    } else {
      md.row("Node", "Start", "End", "Duration", "Reason");
      md.line("|---|---|---|---|---|");
      for (Coverage.Gap gap : c.gaps()) {
        md.row(md.esc(ReportView.orDash(gap.node())), ReportView.time(gap.start()), ReportView.time(gap.end()),
            gap.start() == null ? "-" : ReportView.duration(gap.start(), gap.end()),
            md.esc(ReportView.orDash(gap.reason())));
      }
    }
    md.line();
  }

  private static void findings(Md md, ReportView view) throws IOException {
    md.line("## Findings");
    md.line();
    List<Finding> top = view.topFindings();
    if (top.isEmpty()) {
      md.line("No findings.");
      md.line();
      return;
    }
    md.line("Most severe first (confidence, then kind, then tokens).");
    md.line();
    md.row("#", "Confidence", "Kind", "Request", "Tenant", "Time", "Node \u2192 decode", "Source tenants", "Tokens");
    md.line("|---:|---|---|---|---|---|---|---|---:|");
    int i = 1;
    for (Finding f : top) {
      String trace = view.traceUrl(f);
      md.row(String.valueOf(i++), f.confidence().id(), f.kind().label(), md.esc(ReportView.orDash(f.requestId()))
          + (trace == null ? "" : " ([trace](<" + trace + ">))"),
          md.esc(ReportView.orDash(f.tenant())), ReportView.time(f.time()),
          md.esc(ReportView.orDash(f.node()) + " \u2192 " + ReportView.orDash(f.decodeNode())),
          md.esc(String.join(", ", ReportView.sourceTenants(f))), ReportView.number(view.tokensOf(f)));
    }
    if (view.moreFindings() > 0) {
      md.line();
      md.line("\u2026 and " + ReportView.plural(view.moreFindings(), "more finding")
          + " (all of them are in findings.csv, findings.ndjson, findings.arrow and report.json).");
    }
    md.line();
  }

  private static void leakedContent(Md md, ReportView view) throws IOException {
    if (!view.hasText()) {
      return;
    }
    List<ReportView.LeakedSpan> spans = view.leakedContent();
    md.line("## Leaked content");
    md.line();
    md.line(view.options().reveal()
        ? "**Revealed**: the text below is other customers' data. Handle this file accordingly."
        : "Redacted: each leaked span shows its hash, length, data categories and a masked shape only. To see"
            + " the text, run " + md.code(RevealedCopy.command(view.report().index())) + " in the folder of this"
            + " report: it writes a revealed copy into " + md.code(RevealedCopy.FOLDER + "/") + " beside it; the"
            + " redacted reports stay as they are.");
    md.line();
    if (spans.isEmpty()) {
      md.line("The top findings carry no text spans.");
      md.line();
      return;
    }
    md.row("Request", "Source tenant", "Span", "Tokens", "Keyed hash", "Chars", "Categories",
        view.options().reveal() ? "Text" : "Masked excerpt");
    md.line("|---|---|---|---:|---|---:|---|---|");
    for (ReportView.LeakedSpan s : spans) {
      ContentRedactor.Shown shown = s.shown();
      md.row(md.esc(s.finding().requestId()), md.esc(ReportView.orDash(s.source().tenant())),
          md.esc(s.span().responseStart() + "\u2013" + s.span().responseEnd() + s.span().copiesNamed()), String.valueOf(s.span().tokens()),
          shown == null ? "-" : shown.hash(), shown == null ? "-" : ReportView.number(shown.length()),
          shown == null ? "-" : md.esc(String.join(", ", shown.categories())),
          shown == null ? "(" + md.esc(s.notShown()) + ")" : md.codeCell(shown.excerpt()));
    }
    md.line();
  }

  private static void parameters(Md md, ReportView view) throws IOException {
    md.line("## Parameters");
    md.line();
    Map<String, String> parameters = view.parameters();
    if (parameters.isEmpty()) {
      md.line("None recorded.");
    } else {
      md.row("Parameter", "Value");
      md.line("|---|---|");
      for (Map.Entry<String, String> p : parameters.entrySet()) {
        md.row(md.esc(p.getKey()), md.codeCell(p.getValue()));
      }
    }
    md.line();
  }

  /** Markdown output with escaping for values that came from logs. */
  private record Md(Writer out) {

    void line(String text) throws IOException {
      out.write(text);
      out.write('\n');
    }

    void line() throws IOException {
      out.write('\n');
    }

    void row(String... cells) throws IOException {
      out.write("| ");
      out.write(String.join(" | ", cells));
      out.write(" |\n");
    }

    /** A log-supplied value as literal text ({@link Markdown#text}). */
    String esc(String s) {
      return Markdown.text(s);
    }

    /** Literal text in a table cell ({@link Markdown#code}). */
    String codeCell(String s) {
      return Markdown.code(s);
    }

    String code(String s) {
      return s == null ? "-" : "`" + io.kvscope.ingest.Printable.text(s).replace("`", "'") + "`";
    }
  }
}

package io.kvscope.analysis.report;

import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Span;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.EvidenceUsed;
import io.kvscope.analysis.impact.ImpactModel;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.impact.Window;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the human reports (Markdown and HTML) show, worked out once from a {@link Report}: the
 * "is it over?" headline, windows grouped by node, tenants and matrix ranked, the most severe
 * findings and what may be shown of their leaked spans. Both renderers read only this.
 */
final class ReportView {

  /** The answer to "is it over?". */
  record Headline(boolean over, String title, List<String> lines) {}

  /** The top of the source x recipient matrix, and every pair of it ({@code allPairs}, most responses first). */
  record Matrix(List<String> sources, List<String> recipients, Map<String, MatrixCell> cells, long maxResponses,
      int omittedSources, int omittedRecipients, List<MatrixCell> topPairs, int omittedPairs, List<MatrixCell> allPairs) {

    MatrixCell cell(String source, String recipient) {
      return cells.get(source + "\u0000" + recipient);
    }
  }

  /** One leaked span of a top finding and what may be shown of it (null: text not available). */
  /**
   * A leaked span and what may be shown of it; {@code shown} is null when the reply's text at its
   * offsets cannot be shown, and {@code notShown} says why.
   */
  record LeakedSpan(Finding finding, Source source, Span span, ContentRedactor.Shown shown, String notShown) {}

  static final String NOT_IN_INDEX = "text not in index";
  /**
   * Where a request's records disagree on its reply (or a source's on its prompt), a leak found in
   * one of the other copies has its offsets in that copy: the texts the index keeps hold other words
   * there, never shown in its place.
   */
  static final String ANOTHER_COPY = "found in another logged copy of this reply or of its source's prompt";

  private final Report report;
  private final WriteOptions options;
  private final Map<String, ImpactModel.Response> leaks;

  ReportView(Report report, WriteOptions options) {
    this.report = report;
    this.options = options;
    this.leaks = ImpactModel.leakedResponses(report.findings());
  }

  /**
   * The tokens a findings table gives for {@code f}: for a counted leak, its response's foreign
   * tokens as the summary counts them (the same figure the workbench and the notices give, however
   * many findings the response has); otherwise the finding's own.
   */
  long tokensOf(Finding f) {
    ImpactModel.Response response = f.isCountedLeak() && f.requestId() != null ? leaks.get(f.requestId()) : null;
    return response != null ? response.tokens() : f.matchedTokens();
  }

  /**
   * The link to the trace of {@code f}'s request in the operator's tracing tool, or null without a
   * template, a request or a trace id for it in the index.
   */
  String traceUrl(Finding f) throws IOException {
    TraceLinks links = options.traceLinks();
    return links.enabled() && f.requestId() != null ? links.url(options.text().traceId(f.requestId())) : null;
  }

  Report report() {
    return report;
  }

  WriteOptions options() {
    return options;
  }

  Headline headline() {
    List<Window> openVulnerable = report.windows().stream()
        .filter(w -> w.kind() == Window.Kind.VULNERABLE && w.open()).toList();
    List<Window> openExposure = report.windows().stream()
        .filter(w -> w.kind() == Window.Kind.EXPOSURE && w.open()).toList();
    List<String> lines = new ArrayList<>();
    for (Window w : openVulnerable) {
      lines.add("Node " + orDash(w.node()) + " still runs a vulnerable configuration since " + time(w.start())
          + (w.reason() == null ? "" : " (" + w.reason() + ")") + ".");
    }
    for (Window w : openExposure) {
      lines.add("Leaked responses are still being served" + where(w) + " since " + time(w.start()) + " ("
          + w.count() + " so far).");
    }
    var s = report.summary();
    if (s.leakedResponses() > 0) {
      lines.add(s.leakedResponses() + " responses carried another tenant's data (confirmed + probable), from "
          + range(s.sourceRequests(), s.sourceRequestsPossible()) + " requests of "
          + range(s.victimTenants(), s.victimTenantsPossible()) + " tenants to " + s.recipientTenants()
          + " tenants, between " + time(s.firstExposure()) + " and " + time(s.lastExposure()) + ".");
      if (s.leakedResponsesOwnTenantAlsoHeld() > 0) {
        lines.add("In " + s.leakedResponsesOwnTenantAlsoHeld() + " of them the recipient's own tenant also held, within"
            + " reach of the pool, everything that leaked: each may be its own data come back, so at least "
            + s.leakedResponsesAtLeast() + " carried another tenant's data for sure.");
      }
      if (s.sourceRequestsPossible() > s.sourceRequests()) {
        lines.add("Where several requests held a leaked passage word for word, each is named as a possible source:"
            + " the first figure counts sources known for sure, the second every possible one.");
      }
    }
    if (s.requestsWithDisagreeingCopies() > 0) {
      lines.add(COPIES_TITLE + ": " + plural(s.requestsWithDisagreeingCopies(), "request") + " logged more than once with"
          + " different texts; every copy of a reply was analyzed, and a finding found in a copy names the copies.");
    }
    if (s.reviewResponses() > 0) {
      lines.add(REVIEW_TITLE + ": " + plural(s.reviewResponses(), "response") + " (not counted above; see the review list).");
    }
    boolean open = !openVulnerable.isEmpty() || !openExposure.isEmpty();
    if (open) {
      return new Headline(false, "Not over: " + plural(openVulnerable.size() + openExposure.size(), "window")
          + " still open", lines);
    }
    Instant lastClose = report.windows().stream().map(Window::end).max(Comparator.naturalOrder()).orElse(null);
    if (lastClose != null) {
      lines.add("Every window is closed; the last one closed at " + time(lastClose) + ".");
    }
    if (s.leakedResponses() == 0 && report.windows().isEmpty()) {
      // "Nothing found" is only worth what the logs could show.
      var coverage = report.coverage();
      if (coverage == null) {
        return new Headline(true, "No cross-tenant exposure found", lines);
      }
      if (coverage.requests() == 0) {
        return new Headline(false, "Nothing analysed: no request in the logs", lines);
      }
      if (coverage.requestsWithoutEngineLogs() == coverage.requests()) {
        lines.add("No request was joined to an engine log, so accepted over-length prompts, prefill underruns "
            + "and vulnerable configurations could not be checked.");
        return new Headline(false, "No cross-tenant text found, but the engine logs are missing", lines);
      }
      return new Headline(true, "No cross-tenant exposure found", lines);
    }
    return new Headline(true, "Over: no open windows", lines);
  }

  private static String where(Window w) {
    if (w.deployment() != null) {
      return " on " + w.deployment();
    }
    return w.node() == null ? "" : " on " + w.node();
  }

  /** What a reader of a window of unknown engine version should know and do. */
  static final String UNKNOWN_VERSION_NOTE = "Engine version unknown: no SGLang log line carries it and no deployment"
      + " record covered these epochs, so they count as vulnerable unless the engine was patched. To settle it, add"
      + " to the inputs the pods as Kubernetes saw them (kubectl get pods -o yaml: image tags and container start"
      + " times), saved /get_server_info responses, or a deployment manifest (CSV: node,from,to,version).";

  /** True when some vulnerable window's engine version no record told. */
  boolean anyVersionUnknown() {
    return report.windows().stream().anyMatch(w -> w.kind() == Window.Kind.VULNERABLE && w.versionUnknown());
  }

  /** Vulnerable windows by node, nodes and windows in time order. */
  Map<String, List<Window>> vulnerableByNode() {
    Map<String, List<Window>> byNode = new TreeMap<>();
    report.windows().stream()
        .filter(w -> w.kind() == Window.Kind.VULNERABLE)
        .sorted(Comparator.comparing(Window::start))
        .forEach(w -> byNode.computeIfAbsent(orDash(w.node()), k -> new ArrayList<>()).add(w));
    return byNode;
  }

  /** True when some exposure window's deployment is known (else the column would be "-" throughout). */
  boolean exposuresNameDeployments() {
    return exposureWindows().stream().anyMatch(w -> !"-".equals(deployment(w)));
  }

  /**
   * The deployment of an exposure window: the window's own, else the deployments its leaked
   * responses' findings name in their evidence (over-length, underrun and timing evidence carry
   * the serving deployment), comma-separated; {@code -} when nothing tells.
   */
  String deployment(Window w) {
    if (w.deployment() != null && !w.deployment().isEmpty()) {
      return w.deployment();
    }
    if (deploymentsByRequest == null) {
      deploymentsByRequest = new HashMap<>();
      for (Finding f : report.findings()) {
        if (f.requestId() != null && f.evidence() instanceof Evidence.OfRequest r && r.deployment() != null
            && !r.deployment().isEmpty()) {
          deploymentsByRequest.computeIfAbsent(f.requestId(), k -> new java.util.TreeSet<>()).add(r.deployment());
        }
      }
    }
    java.util.Set<String> found = new java.util.TreeSet<>();
    for (Finding f : report.findings()) {
      boolean inWindow = f.isCountedLeak() && f.requestId() != null && f.time() != null && w.node() != null
          && w.node().equals(f.decodeNode()) && !f.time().isBefore(w.start()) && (w.end() == null || !f.time().isAfter(w.end()));
      if (inWindow) {
        found.addAll(deploymentsByRequest.getOrDefault(f.requestId(), java.util.Set.of()));
      }
    }
    return found.isEmpty() ? "-" : String.join(", ", found);
  }

  private Map<String, java.util.Set<String>> deploymentsByRequest;

  List<Window> exposureWindows() {
    return report.windows().stream()
        .filter(w -> w.kind() == Window.Kind.EXPOSURE)
        .sorted(Comparator.comparing(Window::start))
        .toList();
  }

  /** Rows of the tenant tables; the rest is in report.json. */
  static final int TENANT_ROWS = 100;

  /** Tenants most involved first (tokens exposed plus received), then by name; at most {@link #TENANT_ROWS}. */
  List<TenantImpact> tenants() {
    return report.tenants().stream()
        .sorted(Comparator.comparingLong((TenantImpact t) -> t.asVictim().tokens() + t.asRecipient().tokens())
            .reversed()
            .thenComparing(t -> t.asVictim().requests() + t.asRecipient().responses(), Comparator.reverseOrder())
            .thenComparing(TenantImpact::tenant, Comparator.nullsLast(Comparator.naturalOrder())))
        .limit(TENANT_ROWS)
        .toList();
  }

  int moreTenants() {
    return Math.max(0, report.tenants().size() - TENANT_ROWS);
  }

  Matrix matrix() {
    return matrix(options.topMatrix(), options.topMatrix());
  }

  /** The matrix with at most {@code rows} source tenants and {@code columns} recipient tenants. */
  Matrix matrix(int rows, int columns) {
    Map<String, Long> bySource = new HashMap<>();
    Map<String, Long> byRecipient = new HashMap<>();
    Map<String, MatrixCell> cells = new HashMap<>();
    long max = 0;
    List<MatrixCell> named = report.matrix().stream()
        .map(c -> new MatrixCell(orDash(c.sourceTenant()), orDash(c.recipientTenant()), c.responses(), c.tokens(),
            c.responsesPossible()))
        .toList();
    for (MatrixCell c : named) {
      bySource.merge(c.sourceTenant(), c.responsesPossible(), Long::sum);
      byRecipient.merge(c.recipientTenant(), c.responsesPossible(), Long::sum);
      cells.put(c.sourceTenant() + "\u0000" + c.recipientTenant(), c);
      max = Math.max(max, c.responsesPossible());
    }
    List<String> sources = ranked(bySource);
    List<String> recipients = ranked(byRecipient);
    List<MatrixCell> pairs = named.stream()
        .sorted(Comparator.comparingLong(MatrixCell::responses).reversed()
            .thenComparing(Comparator.comparingLong(MatrixCell::responsesPossible).reversed())
            .thenComparing(Comparator.comparingLong(MatrixCell::tokens).reversed())
            .thenComparing(MatrixCell::sourceTenant).thenComparing(MatrixCell::recipientTenant))
        .toList();
    return new Matrix(
        sources.subList(0, Math.min(rows, sources.size())),
        recipients.subList(0, Math.min(columns, recipients.size())),
        cells, max,
        Math.max(0, sources.size() - rows), Math.max(0, recipients.size() - columns),
        pairs.subList(0, Math.min(rows * 2, pairs.size())), Math.max(0, pairs.size() - rows * 2), pairs);
  }

  /** Source tenants (rows) and recipient tenants (columns) report.html's heat map holds before listing the rest. */
  static final int HTML_MATRIX_ROWS = 40;
  static final int HTML_MATRIX_COLUMNS = 16;

  private static List<String> ranked(Map<String, Long> totals) {
    return totals.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
        .map(Map.Entry::getKey)
        .toList();
  }

  /** Categories, most frequent first. */
  List<Map.Entry<String, Long>> dataCategories() {
    return report.dataCategories().entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
        .toList();
  }

  List<Finding> topFindings() {
    return report.findings().stream()
        .sorted(FindingOrder.MOST_SEVERE_FIRST)
        .limit(options.topFindings())
        .toList();
  }

  int moreFindings() {
    return Math.max(0, report.findings().size() - options.topFindings());
  }

  /**
   * Rows of report.html's findings table, which pages, sorts and filters them in the page: every
   * finding up to this many (a page this size stays a few MB); the rest are in findings.csv.
   */
  static final int HTML_FINDING_ROWS = 20_000;

  /** Every finding, most severe first, up to {@link #HTML_FINDING_ROWS}. */
  List<Finding> allFindings() {
    return report.findings().stream().sorted(FindingOrder.MOST_SEVERE_FIRST).limit(HTML_FINDING_ROWS).toList();
  }

  /**
   * Same-tenant reuse as the summary counts it and as finding lists (the audit's warnings) count it:
   * the summary counts responses that carried only their own tenant's earlier data; a response that
   * also carried another tenant's data is a leaked response instead, though its same-tenant
   * findings stay in the findings list.
   *
   * @param findings same-tenant reuse findings, any confidence
   * @param responses distinct responses they are about
   * @param onLeakedResponses of those responses, the ones counted as leaked responses
   */
  record SameTenantReuse(long findings, long responses, long onLeakedResponses) {}

  SameTenantReuse sameTenantReuse() {
    java.util.Set<String> leaked = new java.util.HashSet<>();
    java.util.Set<String> reuse = new java.util.HashSet<>();
    long findings = 0;
    for (Finding f : report.findings()) {
      if (f.isCountedLeak() && f.requestId() != null
          && f.sources().stream().anyMatch(s -> s.tenant() == null || !s.tenant().equals(f.tenant()))) {
        leaked.add(f.requestId());
      }
      if (f.kind() == io.kvscope.model.finding.FindingKind.SAME_TENANT_REUSE) {
        findings++;
        if (f.requestId() != null) {
          reuse.add(f.requestId());
        }
      }
    }
    long onLeaked = reuse.stream().filter(leaked::contains).count();
    return new SameTenantReuse(findings, reuse.size(), onLeaked);
  }

  /** The same-tenant figures in words, for the reader who compares them with an audit's list. */
  /** The review list's name, as every report writes it. */
  static final String REVIEW_TITLE = "Text shared with one other tenant, no leak mechanism in the logs: review";
  static final String COPIES_TITLE = "Copies disagree";

  /** Why the review list is apart from the leaks, as every report writes it. */
  static final String REVIEW_NOTE = "The engine logs show each of these responses served normally (its prompt "
      + "prefilled whole, no underrun, no failed transfer), so no other request's pages can have reached it; its text "
      + "shared with one other tenant is most likely the same answer to a like question. Not counted as leaks.";

  String sameTenantNote() {
    SameTenantReuse r = sameTenantReuse();
    String counted = number(report.summary().sameTenantReuse()) + " responses carried only their own tenant's earlier"
        + " data (not a leak between customers)";
    if (r.findings() == 0) {
      return counted + ".";
    }
    return counted + "; the findings list (and kvscope audit's warnings) holds " + plural(r.findings(),
        "same-tenant finding") + " on " + plural(r.responses(), "response")
        + (r.onLeakedResponses() == 0 ? "" : ", " + r.onLeakedResponses() + " of which also carried another tenant's"
            + " data and count as leaked responses") + ".";
  }

  /** True when leaked spans can be shown at all: a text source was given. */
  boolean hasText() {
    return options.text() != TextSource.NONE;
  }

  /**
   * The leaked spans of the top cross-tenant findings with what may be shown of each: asks the
   * text source for each recipient response once.
   */
  List<LeakedSpan> leakedContent() throws IOException {
    if (!hasText()) {
      return List.of();
    }
    ContentRedactor redactor = new ContentRedactor(options.reveal(), options.text().redaction());
    List<LeakedSpan> spans = new ArrayList<>();
    for (Finding f : topFindings()) {
      if (!f.kind().isCrossTenantLeak() || f.requestId() == null) {
        continue;
      }
      // The kept reply under null, each logged copy a span names under its record.
      Map<String, Optional<String>> responses = new HashMap<>();
      for (Source source : f.sources()) {
        for (Span span : source.spans()) {
          Optional<String> read = responses.get(span.responseCopy());
          if (read == null) {
            read = Optional.ofNullable(options.text().text(f.requestId(), TextSource.RESPONSE, span.responseCopy()));
            responses.put(span.responseCopy(), read);
          }
          String response = read.orElse(null);
          if (response == null || span.responseEnd() > response.length()) {
            spans.add(new LeakedSpan(f, source, span, null, NOT_IN_INDEX));
          } else if (!heldBySource(response, source, span)) {
            spans.add(new LeakedSpan(f, source, span, null, ANOTHER_COPY));
          } else {
            spans.add(new LeakedSpan(f, source, span,
                redactor.show(response.substring(span.responseStart(), span.responseEnd())), null));
          }
        }
      }
    }
    return spans;
  }

  /**
   * Whether the reply's words at the span are the source's words at its end of the span, as the
   * verification matched them. True when the source's text is not known: nothing contradicts it.
   */
  private boolean heldBySource(String response, Source source, Span span) throws IOException {
    // Read per span, not kept: a source may be a prompt of megabytes, and fifty findings name many.
    String held = options.text().text(source.requestId(), span.sourceField(), span.sourceCopy());
    return held == null || span.sourceEnd() > held.length() || span.wordsAgree(response, held);
  }

  /** Parameters sorted by name, values as compact JSON (strings without quotes). */
  Map<String, String> parameters() {
    Map<String, String> shown = new LinkedHashMap<>();
    new TreeMap<>(report.parameters()).forEach((key, value) ->
        shown.put(key, value instanceof CharSequence s ? s.toString() : JsonValues.compact(value)));
    return shown;
  }

  // ---------------------------------------------------------------- formatting shared by both

  /** ISO-8601 UTC to the second, {@code -} for unknown. */
  static String time(Instant t) {
    return t == null ? "-" : t.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /**
   * A window's length: {@link #duration}, or {@code single response} for an exposure window of one
   * response (it starts and ends with it), or {@code single event} for any other window of no length.
   */
  static String duration(Window w) {
    if (w.end() != null && w.end().equals(w.start())) {
      return w.kind() == Window.Kind.EXPOSURE && w.count() == 1 ? "single response" : "single event";
    }
    return duration(w.start(), w.end());
  }

  /** {@code 3d 4h}, {@code 5h 12m}, {@code 40m}, {@code 42s}; {@code open} when there is no end. */
  static String duration(Instant start, Instant end) {
    if (end == null) {
      return "open";
    }
    Duration d = Duration.between(start, end);
    if (d.toMinutes() == 0) {
      return Math.max(0, d.toSeconds()) + "s";
    }
    if (d.toDays() > 0) {
      return d.toDays() + "d " + d.toHoursPart() + "h";
    }
    if (d.toHours() > 0) {
      return d.toHours() + "h " + d.toMinutesPart() + "m";
    }
    return Math.max(0, d.toMinutes()) + "m";
  }

  static String orDash(String s) {
    return s == null || s.isEmpty() ? "-" : s;
  }

  static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  /** One sentence on the evidence: how many files, bytes, records and rejects, and which kvscope. */
  static String evidenceLine(EvidenceUsed evidence) {
    if (evidence.files().isEmpty()) {
      return "This report does not list the files it rests on (it was written by a kvscope before report version 1.3,"
          + " or from an index without file records).";
    }
    int n = evidence.files().size();
    return "The figures rest on these " + n + (n == 1 ? " file" : " files") + " (" + number(evidence.totalBytes())
        + " bytes, " + number(evidence.totalRecords()) + " records read, " + number(evidence.totalRejected())
        + " rejected into the index's quarantine), analysed by kvscope "
        + (evidence.kvscopeVersion() == null ? "(version not recorded)" : evidence.kvscopeVersion())
        + " with the parameters listed below. The same files give the same SHA-256.";
  }

  /** A file's hash, or why there is none. */
  static String hashOf(EvidenceUsed.File f) {
    return f.sha256() != null ? f.sha256() : f.complete() ? "not recorded (ingested before hashes were)" : "none: not read to its end";
  }

  static String number(long n) {
    return String.format(java.util.Locale.ROOT, "%,d", n);
  }

  /**
   * A count known for sure and the count with every possible one: {@code 3} when they agree,
   * {@code 3–7} (at least 3, at most 7) when candidates add to it.
   */
  static String range(long certain, long possible) {
    return possible > certain ? number(certain) + "\u2013" + number(possible) : number(certain);
  }

  /** {@link #range} with its noun: {@code 1 response}, but {@code 0–1 responses} and {@code 2 responses}. */
  static String range(long certain, long possible, String noun) {
    return range(certain, possible) + " " + CountNouns.of(certain, possible, noun);
  }

  /** Distinct source tenants of a finding, in order. */
  static List<String> sourceTenants(Finding f) {
    return f.sources().stream().map(Source::tenant).filter(java.util.Objects::nonNull).distinct().toList();
  }
}

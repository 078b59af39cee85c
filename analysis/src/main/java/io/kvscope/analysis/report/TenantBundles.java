package io.kvscope.analysis.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import io.kvscope.analysis.finding.Confidence;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.analysis.finding.Source;
import io.kvscope.analysis.finding.Span;
import io.kvscope.analysis.impact.Report;
import io.kvscope.index.OwnerOnly;
import io.kvscope.ingest.KvscopeOutputs;
import io.kvscope.ingest.json.PrintableJson;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Per-tenant notification bundles: {@code bundles/<tenant>/notification.json} and {@code
 * notification.md}, each holding only that tenant's own view, fit to send to the customer:
 * <ul>
 *   <li>as victim: their requests whose data other tenants received, with when it was exposed,
 *       how many responses carried it, how many tokens, and which ranges of their own prompt or
 *       response; never who received it. Each says whether that is certain or only possible: where
 *       several requests held the leaked text word for word, or the finding is not confirmed, the
 *       bundle says "possibly", never more than the logs show;
 *   <li>as recipient: their responses that carried other tenants' data, with the ranges of their
 *       own response to purge and the tokens; never whose data it was;
 *   <li>their requests admitted although over-length or prefilled short (their replies were not
 *       computed from their prompt).
 * </ul>
 * Only confirmed and probable cross-tenant findings are notified; no text is written, even with
 * {@code reveal}; finding evidence is left out since it may name other requests.
 */
public final class TenantBundles {

  public static final String DIRECTORY = Format.BUNDLES.fileName();
  public static final String JSON_FILE = "notification.json";
  public static final String MARKDOWN_FILE = "notification.md";

  private TenantBundles() {}

  /** One tenant's own view. */
  record Bundle(String tenant, Map<String, VictimRequest> asVictim, Map<String, RecipientResponse> asRecipient,
      List<Finding> affected) {}

  /**
   * One of the tenant's requests whose data others received. Recipients are kept only to count
   * distinct responses and take each one's tokens once; they are never written.
   */
  static final class VictimRequest {
    final String requestId;
    final String engineRid;
    final Map<String, Long> tokensByRecipient = new LinkedHashMap<>();
    final TreeSet<String> kinds = new TreeSet<>();
    final List<Range> ranges = new ArrayList<>();
    Instant firstExposed;
    Instant lastExposed;
    Confidence confidence = Confidence.SUSPECT;
    /** Named alone (not one of several candidates) by a confirmed finding. */
    boolean certain;

    VictimRequest(String requestId, String engineRid) {
      this.requestId = requestId;
      this.engineRid = engineRid;
    }

    long responses() {
      return tokensByRecipient.size();
    }

    long tokens() {
      return tokensByRecipient.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /** One of the tenant's responses that carried others' data; sources are only counted. */
  static final class RecipientResponse {
    final String requestId;
    final String engineRid;
    final Instant time;
    final Map<String, Long> tokensBySource = new LinkedHashMap<>();
    /** Sources named alone; the others are candidates for the same passages. */
    final java.util.Set<String> soleSources = new java.util.HashSet<>();
    final TreeSet<String> kinds = new TreeSet<>();
    final List<Range> ranges = new ArrayList<>();
    Confidence confidence = Confidence.SUSPECT;

    RecipientResponse(String requestId, String engineRid, Instant time) {
      this.requestId = requestId;
      this.engineRid = engineRid;
      this.time = time;
    }

    /** Sole sources' tokens, plus the largest of the candidates' (they name one passage several times). */
    long tokens() {
      long sole = 0;
      long candidates = 0;
      for (Map.Entry<String, Long> e : tokensBySource.entrySet()) {
        if (soleSources.contains(e.getKey())) {
          sole += e.getValue();
        } else {
          candidates = Math.max(candidates, e.getValue());
        }
      }
      return sole + candidates;
    }
  }

  /** A char range of the tenant's own text. */
  record Range(String field, int start, int end) {}

  /** Writes a bundle for every tenant on either side of a counted leak; returns the directories. */
  public static List<Path> write(Report report, Path bundlesDir) throws IOException {
    OwnerOnly.directory(bundlesDir);
    List<Path> written = new ArrayList<>();
    Map<String, String> tenantByDirectory = new java.util.HashMap<>();
    for (Bundle bundle : bundles(report).values()) {
      String other = tenantByDirectory.putIfAbsent(BundleDirectoryName.of(bundle.tenant()), bundle.tenant());
      if (other != null) {
        // Cannot happen short of a SHA-256 collision; if it ever did, one notice must not land in another's folder.
        throw new IllegalStateException("two tenants would share the bundle folder " + BundleDirectoryName.of(other));
      }
      written.add(write(bundle, report, bundlesDir));
    }
    return written;
  }

  /**
   * Writes one tenant's bundle only (nothing of any other tenant reaches {@code bundlesDir});
   * returns its directory, or empty when the tenant is on neither side of a counted leak.
   */
  public static java.util.Optional<Path> writeOne(Report report, String tenant, Path bundlesDir) throws IOException {
    Bundle bundle = bundles(report).get(tenant);
    if (bundle == null) {
      return java.util.Optional.empty();
    }
    OwnerOnly.directory(bundlesDir);
    return java.util.Optional.of(write(bundle, report, bundlesDir));
  }

  private static Path write(Bundle bundle, Report report, Path bundlesDir) throws IOException {
    Path dir = OwnerOnly.directory(bundlesDir.resolve(BundleDirectoryName.of(bundle.tenant())));
    AtomicFile.write(dir.resolve(JSON_FILE), out -> json(bundle, report, out));
    AtomicFile.writeText(dir.resolve(MARKDOWN_FILE), out -> markdown(bundle, report, out));
    return dir;
  }

  /** Each tenant's view, by tenant name. */
  static Map<String, Bundle> bundles(Report report) {
    Map<String, Bundle> bundles = new TreeMap<>();
    for (Finding f : report.findings()) {
      if (!f.isCountedLeak() || f.tenant() == null || f.requestId() == null) {
        continue;
      }
      for (Source s : f.sources()) {
        if (s.tenant() == null || s.tenant().equals(f.tenant())) {
          continue; // same-tenant reuse is not a notification
        }
        RecipientResponse received = bundle(bundles, f.tenant()).asRecipient()
            .computeIfAbsent(f.requestId(), id -> new RecipientResponse(id, f.engineRid(), f.time()));
        // Two findings on one response (verbatim span and identifier) may name the same source.
        received.tokensBySource.merge(s.requestId(), s.matchedTokens(), Math::max);
        if (s.sole()) {
          received.soleSources.add(s.requestId());
        }
        received.kinds.add(f.kind().id());
        received.confidence = best(received.confidence, f.confidence());
        VictimRequest lost = bundle(bundles, s.tenant()).asVictim()
            .computeIfAbsent(s.requestId(), id -> new VictimRequest(id, s.engineRid()));
        lost.tokensByRecipient.merge(f.requestId(), s.matchedTokens(), Math::max);
        lost.kinds.add(f.kind().id());
        lost.confidence = best(lost.confidence, f.confidence());
        lost.certain |= s.sole() && f.confidence() == Confidence.CONFIRMED;
        lost.firstExposed = min(lost.firstExposed, f.time());
        lost.lastExposed = max(lost.lastExposed, f.time());
        for (Span span : s.spans()) {
          received.ranges.add(new Range(TextSource.RESPONSE, span.responseStart(), span.responseEnd()));
          lost.ranges.add(new Range(span.sourceField(), span.sourceStart(), span.sourceEnd()));
        }
      }
    }
    // Their own requests that the engine mishandled, for tenants already being notified.
    for (Finding f : report.findings()) {
      boolean mishandled = f.kind() == FindingKind.OVER_LENGTH_ACCEPTED || f.kind() == FindingKind.PREFILL_UNDERRUN;
      if (mishandled && f.confidence().counts() && f.tenant() != null && bundles.containsKey(f.tenant())) {
        bundles.get(f.tenant()).affected().add(f);
      }
    }
    return bundles;
  }

  private static Confidence best(Confidence a, Confidence b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static Bundle bundle(Map<String, Bundle> bundles, String tenant) {
    return bundles.computeIfAbsent(tenant, t -> new Bundle(t, new LinkedHashMap<>(), new LinkedHashMap<>(), new ArrayList<>()));
  }

  /** Overlapping or touching ranges of the same field as one. */
  static List<Range> merge(List<Range> ranges) {
    List<Range> sorted = ranges.stream()
        .sorted(Comparator.comparing((Range r) -> String.valueOf(r.field())).thenComparingInt(Range::start))
        .toList();
    List<Range> merged = new ArrayList<>();
    for (Range r : sorted) {
      Range last = merged.isEmpty() ? null : merged.getLast();
      if (last != null && Objects.equals(last.field(), r.field()) && r.start() <= last.end()) {
        merged.set(merged.size() - 1, new Range(r.field(), last.start(), Math.max(last.end(), r.end())));
      } else {
        merged.add(r);
      }
    }
    return merged;
  }

  // ---------------------------------------------------------------- notification.json

  private static void json(Bundle b, Report report, java.io.OutputStream out) throws IOException {
    try (JsonGenerator g = PrintableJson.configure(new JsonFactory().createGenerator(out))) {
      g.setPrettyPrinter(new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n")));
      g.writeStartObject();
      g.writeStringField("report_version", report.reportVersion());
      g.writeStringField("generated_at", report.generatedAt() == null ? null : report.generatedAt().toString());
      g.writeStringField("tenant", b.tenant());
      g.writeObjectFieldStart("summary");
      g.writeNumberField("requests_exposed", b.asVictim().values().stream().filter(v -> v.certain).count());
      g.writeNumberField("requests_possibly_exposed", b.asVictim().values().stream().filter(v -> !v.certain).count());
      g.writeNumberField("responses_that_carried_them", b.asVictim().values().stream().mapToLong(VictimRequest::responses).sum());
      g.writeNumberField("tokens_exposed", b.asVictim().values().stream().mapToLong(VictimRequest::tokens).sum());
      g.writeNumberField("responses_with_foreign_data", b.asRecipient().size());
      g.writeNumberField("foreign_tokens_received", b.asRecipient().values().stream().mapToLong(RecipientResponse::tokens).sum());
      g.writeNumberField("mishandled_requests", b.affected().size());
      g.writeEndObject();
      g.writeArrayFieldStart("as_victim");
      for (VictimRequest v : b.asVictim().values()) {
        g.writeStartObject();
        g.writeStringField("request_id", v.requestId);
        g.writeStringField("engine_rid", v.engineRid);
        g.writeStringField("first_exposed", iso(v.firstExposed));
        g.writeStringField("last_exposed", iso(v.lastExposed));
        g.writeNumberField("responses", v.responses());
        g.writeNumberField("tokens", v.tokens());
        g.writeStringField("confidence", v.confidence.id());
        g.writeStringField("exposure", v.certain ? "certain" : "possible");
        strings(g, "kinds", v.kinds);
        ranges(g, "ranges", merge(v.ranges));
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("as_recipient");
      for (RecipientResponse r : b.asRecipient().values()) {
        g.writeStartObject();
        g.writeStringField("request_id", r.requestId);
        g.writeStringField("engine_rid", r.engineRid);
        g.writeStringField("time", iso(r.time));
        strings(g, "kinds", r.kinds);
        g.writeStringField("confidence", r.confidence.id());
        g.writeNumberField("tokens", r.tokens());
        g.writeNumberField("sources", r.tokensBySource.size());
        ranges(g, "ranges", merge(r.ranges));
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("mishandled_requests");
      for (Finding f : b.affected()) {
        g.writeStartObject();
        g.writeStringField("request_id", f.requestId());
        g.writeStringField("engine_rid", f.engineRid());
        g.writeStringField("time", iso(f.time()));
        g.writeStringField("kind", f.kind().id());
        g.writeStringField("confidence", f.confidence().id());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
      g.writeRaw('\n');
    }
  }

  private static void strings(JsonGenerator g, String name, Iterable<String> values) throws IOException {
    g.writeArrayFieldStart(name);
    for (String value : values) {
      g.writeString(value);
    }
    g.writeEndArray();
  }

  private static void ranges(JsonGenerator g, String name, List<Range> ranges) throws IOException {
    g.writeArrayFieldStart(name);
    for (Range r : ranges) {
      g.writeStartObject();
      g.writeStringField("field", r.field());
      g.writeNumberField("start", r.start());
      g.writeNumberField("end", r.end());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private static String iso(Instant t) {
    return t == null ? null : t.toString();
  }

  // ---------------------------------------------------------------- notification.md

  private static void markdown(Bundle b, Report report, Writer out) throws IOException {
    out.write(KvscopeOutputs.NOTIFICATION_MARKDOWN_TITLE + Markdown.code(b.tenant()) + "\n\n");
    out.write("Prepared " + ReportView.time(report.generatedAt()) + ". Times are UTC. This notice lists only your own"
        + " requests; it names no other customer.\n\n");
    out.write("## Your data received by others\n\n");
    if (b.asVictim().isEmpty()) {
      out.write("None of your requests' data was found in other customers' responses.\n\n");
    } else {
      out.write("Parts of these requests of yours appeared, or possibly appeared, in responses served to other"
          + " customers. \"Possibly\" means that other requests held the same text word for word, or that the"
          + " evidence is not conclusive: the logs cannot show that it was your data the response carried.\n\n");
      out.write("| Your request | Exposed | First exposed | Last exposed | Responses | Tokens | Confidence | Parts of your text |\n");
      out.write("|---|---|---|---|---:|---:|---|---|\n");
      for (VictimRequest v : b.asVictim().values()) {
        out.write("| " + Markdown.code(v.requestId) + " | " + (v.certain ? "yes" : "possibly") + " | "
            + ReportView.time(v.firstExposed) + " | "
            + ReportView.time(v.lastExposed) + " | " + v.responses() + " | " + ReportView.number(v.tokens()) + " | "
            + v.confidence.id() + " | " + Markdown.text(describe(merge(v.ranges))) + " |\n");
      }
      out.write("\n");
    }
    out.write("## Other data in your responses\n\n");
    if (b.asRecipient().isEmpty()) {
      out.write("None of your responses carried other customers' data.\n\n");
    } else {
      out.write("These responses you received contained data of other customers. Please delete the marked"
          + " ranges wherever the responses were stored.\n\n");
      out.write("| Your request | Time | Tokens | Confidence | Ranges of the response |\n");
      out.write("|---|---|---:|---|---|\n");
      for (RecipientResponse r : b.asRecipient().values()) {
        out.write("| " + Markdown.code(r.requestId) + " | " + ReportView.time(r.time) + " | " + ReportView.number(r.tokens())
            + " | " + r.confidence.id() + " | " + Markdown.text(describe(merge(r.ranges))) + " |\n");
      }
      out.write("\n");
    }
    if (!b.affected().isEmpty()) {
      out.write("## Requests that were not processed as sent\n\n");
      out.write("The engine answered these requests without reading your full prompt; their replies are unreliable.\n\n");
      out.write("| Your request | Time | Finding | Confidence |\n|---|---|---|---|\n");
      for (Finding f : b.affected()) {
        out.write("| " + Markdown.code(f.requestId()) + " | " + ReportView.time(f.time()) + " | " + f.kind().id() + " | "
            + f.confidence().id() + " |\n");
      }
      out.write("\n");
    }
  }

  private static String describe(List<Range> ranges) {
    if (ranges.isEmpty()) {
      return "-";
    }
    List<String> parts = new ArrayList<>();
    for (Range r : ranges) {
      String field = TextSource.PROMPT.equals(r.field()) ? "prompt" : TextSource.RESPONSE.equals(r.field()) ? "response" : "text";
      parts.add(field + " chars " + r.start() + "\u2013" + r.end());
    }
    return String.join(", ", parts);
  }

  private static Instant min(Instant a, Instant b) {
    return a == null ? b : b == null ? a : a.isBefore(b) ? a : b;
  }

  private static Instant max(Instant a, Instant b) {
    return a == null ? b : b == null ? a : a.isAfter(b) ? a : b;
  }
}

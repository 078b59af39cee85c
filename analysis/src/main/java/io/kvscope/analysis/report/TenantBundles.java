package io.kvscope.analysis.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Span;
import io.kvscope.model.finding.Tenants;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.index.store.OwnerOnly;
import io.kvscope.index.store.Redaction;
import io.kvscope.ingest.KvscopeOutputs;
import io.kvscope.ingest.json.PrintableJson;
import io.kvscope.model.identifiers.Identifier;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Per-tenant notification bundles: {@code bundles/<tenant>/notification.json}, {@code
 * notification.md} and {@code notification.html} (the same notice for a browser), each holding
 * only that tenant's own view, fit to send to the customer, one entry per request:
 * <ul>
 *   <li>as victim: their requests whose data other tenants received, with when it was exposed,
 *       how many responses carried it, how many tokens, and which ranges of their own prompt or
 *       response; never who received it. Each says whether that is certain or only possible: where
 *       several requests held the leaked text word for word, or the finding is not confirmed, the
 *       bundle says "possibly", never more than the logs show;
 *   <li>as recipient: their responses that carried other tenants' data, with the ranges of their
 *       own response to purge and the tokens; never whose data it was;
 *   <li>their requests admitted although over-length or prefilled short (their replies were not
 *       computed from their prompt); a response that also carried others' data says so in its own
 *       entry instead.
 * </ul>
 * Each entry names the data categories (email addresses, account numbers...) the findings'
 * evidence recognised in it; for a request of theirs that was one of several sources of a finding,
 * that finding's categories are only "possibly" theirs. The customer reads names, not kind ids; the
 * JSON keeps the ids. Only confirmed and probable cross-tenant findings are notified; no text is
 * written, even with {@code reveal}; other evidence is left out since it may name other requests.
 */
public final class TenantBundles {

  public static final String DIRECTORY = Format.BUNDLES.fileName();
  public static final String JSON_FILE = "notification.json";
  public static final String MARKDOWN_FILE = "notification.md";
  public static final String HTML_FILE = "notification.html";

  private TenantBundles() {}

  /** One tenant's own view. */
  record Bundle(String tenant, Map<String, VictimRequest> asVictim, Map<String, RecipientResponse> asRecipient,
      Map<String, Mishandled> affected) {}

  /**
   * One of the tenant's requests whose data others received. Recipients are kept only to count
   * distinct responses and take each one's tokens once; they are never written.
   */
  static final class VictimRequest {
    final String requestId;
    final String engineRid;
    final Map<String, Long> tokensByRecipient = new LinkedHashMap<>();
    final TreeSet<FindingKind> kinds = new TreeSet<>();
    /** Categories of findings that named this request alone; {@link #categoriesPossible} of findings with other sources. */
    final TreeSet<String> categories = new TreeSet<>();
    final TreeSet<String> categoriesPossible = new TreeSet<>();
    final List<Range> ranges = new ArrayList<>();
    Instant firstExposed;
    Instant lastExposed;
    Confidence confidence = Confidence.SUSPECT;
    /** Named alone (not one of several candidates) by a counted finding: the report counts it as exposed. */
    boolean sole;
    /** Named alone by a confirmed finding. */
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
    /** What the findings on it say, the engine's mishandling of the request included. */
    final TreeSet<FindingKind> kinds = new TreeSet<>();
    final TreeSet<String> categories = new TreeSet<>();
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

  /** One of the tenant's requests the engine mishandled (over-length accepted, prefilled short), with all that was found. */
  static final class Mishandled {
    final String requestId;
    final String engineRid;
    final Instant time;
    final TreeSet<FindingKind> kinds = new TreeSet<>();
    Confidence confidence = Confidence.SUSPECT;

    Mishandled(String requestId, String engineRid, Instant time) {
      this.requestId = requestId;
      this.engineRid = engineRid;
      this.time = time;
    }
  }

  /**
   * A char range of the tenant's own text: of the kept text of {@code field}, or of the logged copy
   * {@code copy} names (the record it was read from) where the request's records disagree on it.
   */
  record Range(String field, int start, int end, String copy) {}

  /** Writes a bundle for every tenant on either side of a counted leak; returns the directories. */
  public static List<Path> write(Report report, Path bundlesDir) throws IOException {
    return write(report, bundlesDir, NoticeDetails.NONE);
  }

  /** As {@link #write(Report, Path)}, the notices signed with {@code details}. */
  public static List<Path> write(Report report, Path bundlesDir, NoticeDetails details) throws IOException {
    OwnerOnly.directory(bundlesDir);
    List<Path> written = new ArrayList<>();
    Map<String, String> tenantByDirectory = new java.util.HashMap<>();
    for (Bundle bundle : bundles(report).values()) {
      String other = tenantByDirectory.putIfAbsent(BundleDirectoryName.of(bundle.tenant()), bundle.tenant());
      if (other != null) {
        // Cannot happen short of a SHA-256 collision; if it ever did, one notice must not land in another's folder.
        throw new IllegalStateException("two tenants would share the bundle folder " + BundleDirectoryName.of(other));
      }
      written.add(write(bundle, report, details, bundlesDir));
    }
    return written;
  }

  /**
   * Writes one tenant's bundle only (nothing of any other tenant reaches {@code bundlesDir});
   * returns its directory, or empty when the tenant is on neither side of a counted leak.
   */
  public static java.util.Optional<Path> writeOne(Report report, String tenant, Path bundlesDir) throws IOException {
    return writeOne(report, tenant, bundlesDir, NoticeDetails.NONE);
  }

  /** As {@link #writeOne(Report, String, Path)}, the notice signed with {@code details}. */
  public static java.util.Optional<Path> writeOne(Report report, String tenant, Path bundlesDir, NoticeDetails details)
      throws IOException {
    Bundle bundle = bundles(report).get(tenant);
    if (bundle == null) {
      return java.util.Optional.empty();
    }
    OwnerOnly.directory(bundlesDir);
    return java.util.Optional.of(write(bundle, report, details, bundlesDir));
  }

  private static Path write(Bundle bundle, Report report, NoticeDetails details, Path bundlesDir) throws IOException {
    Path dir = OwnerOnly.directory(bundlesDir.resolve(BundleDirectoryName.of(bundle.tenant())));
    AtomicFile.write(dir.resolve(JSON_FILE), out -> BundleJson.write(bundle, report, out));
    AtomicFile.writeText(dir.resolve(MARKDOWN_FILE), out -> BundleProse.notice(bundle, report, details, new BundleNotice.MarkdownNotice(out)));
    AtomicFile.writeText(dir.resolve(HTML_FILE), out -> BundleProse.notice(bundle, report, details, new BundleNotice.HtmlNotice(out)));
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
        
        received.kinds.add(f.kind());
        received.categories.addAll(categories(f));
        received.confidence = best(received.confidence, f.confidence());
        VictimRequest lost = bundle(bundles, s.tenant()).asVictim()
            .computeIfAbsent(s.requestId(), id -> new VictimRequest(id, s.engineRid()));
        lost.tokensByRecipient.merge(f.requestId(), s.matchedTokens(), Math::max);
        lost.kinds.add(f.kind());
        // A finding's categories are of the whole response: only a sole source surely held them.
        (f.sources().size() == 1 ? lost.categories : lost.categoriesPossible).addAll(categories(f));
        lost.confidence = best(lost.confidence, f.confidence());
        lost.sole |= s.sole();
        lost.certain |= s.sole() && f.confidence() == Confidence.CONFIRMED;
        lost.firstExposed = min(lost.firstExposed, f.time());
        lost.lastExposed = max(lost.lastExposed, f.time());
        for (Span span : s.spans()) {
          received.ranges.add(new Range(TextSource.RESPONSE, span.responseStart(), span.responseEnd(), span.responseCopy()));
          lost.ranges.add(new Range(span.sourceField(), span.sourceStart(), span.sourceEnd(), span.sourceCopy()));
        }
      }
    }
    // Their own requests that the engine mishandled, for tenants already being notified: in the
    // entry of a response that carried others' data, else one entry per request.
    for (Finding f : report.findings()) {
      boolean mishandled = f.kind() == FindingKind.OVER_LENGTH_ACCEPTED || f.kind() == FindingKind.PREFILL_UNDERRUN;
      if (!mishandled || !f.confidence().counts() || f.tenant() == null || f.requestId() == null
          || !bundles.containsKey(f.tenant())) {
        continue;
      }
      Bundle bundle = bundles.get(f.tenant());
      RecipientResponse received = bundle.asRecipient().get(f.requestId());
      if (received != null) {
        received.kinds.add(f.kind());
      } else {
        Mishandled m = bundle.affected().computeIfAbsent(f.requestId(), id -> new Mishandled(id, f.engineRid(), f.time()));
        m.kinds.add(f.kind());
        m.confidence = best(m.confidence, f.confidence());
      }
    }
    for (Bundle bundle : bundles.values()) {
      for (VictimRequest v : bundle.asVictim().values()) {
        v.categoriesPossible.removeAll(v.categories);
      }
    }
    return bundles;
  }

  /** The data categories a finding's evidence recognised in the response's foreign spans. */
  private static List<String> categories(Finding f) {
    return f.evidence() instanceof Evidence.OfLeak leak ? leak.categories() : List.of();
  }

  private static Confidence best(Confidence a, Confidence b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static Bundle bundle(Map<String, Bundle> bundles, String tenant) {
    return bundles.computeIfAbsent(tenant, t -> new Bundle(t, new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>()));
  }

  /** What the engine did wrong with a request of the tenant's own (not another's data). */
  static boolean isMishandling(FindingKind kind) {
    return kind == FindingKind.OVER_LENGTH_ACCEPTED || kind == FindingKind.PREFILL_UNDERRUN;
  }

  /** The report's tenant row of {@code tenant} (every bundle's tenant has one: both come from the counted leaks). */
  static TenantImpact impact(Report report, String tenant) {
    String name = Tenants.nameOf(tenant);
    return report.tenants().stream().filter(t -> t.tenant().equals(name)).findFirst()
        .orElse(new TenantImpact(name, new TenantImpact.AsVictim(0, 0, 0, 0, 0, 0), new TenantImpact.AsRecipient(0, 0, 0, 0)));
  }

  /** Overlapping or touching ranges of the same text (field, and copy) as one; the kept texts' first. */
  static List<Range> merge(List<Range> ranges) {
    List<Range> sorted = ranges.stream()
        .sorted(Comparator.comparing((Range r) -> String.valueOf(r.field()))
            .thenComparing(Range::copy, Comparator.nullsFirst(Comparator.naturalOrder())).thenComparingInt(Range::start))
        .toList();
    List<Range> merged = new ArrayList<>();
    for (Range r : sorted) {
      Range last = merged.isEmpty() ? null : merged.getLast();
      if (last != null && Objects.equals(last.field(), r.field()) && Objects.equals(last.copy(), r.copy())
          && r.start() <= last.end()) {
        merged.set(merged.size() - 1, new Range(r.field(), last.start(), Math.max(last.end(), r.end()), r.copy()));
      } else {
        merged.add(r);
      }
    }
    return merged;
  }

  private static Instant min(Instant a, Instant b) {
    return a == null ? b : b == null ? a : a.isBefore(b) ? a : b;
  }

  private static Instant max(Instant a, Instant b) {
    return a == null ? b : b == null ? a : a.isAfter(b) ? a : b;
  }
}

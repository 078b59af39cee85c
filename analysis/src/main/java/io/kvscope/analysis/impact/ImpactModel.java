package io.kvscope.analysis.impact;

import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Tenants;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * From findings to the incident's numbers. A pure function: the same findings give the same report.
 *
 * <p>Counting rules (the report's contract, docs/report.schema.json): a leaked response is a distinct request with at least one
 * cross-tenant finding (overlap, canary, rare identifier) at confirmed or probable confidence;
 * its sources are the distinct requests of other tenants those findings name. A source is sole
 * when any finding attributes to it alone, else a candidate; source requests and victim tenants
 * count the sole ones, and their {@code possible} twins every one. Tokens are counted once per
 * (response, source) pair: the largest figure any finding gives for it; a response's exposed
 * tokens are its sole sources' tokens plus, for its candidates, the largest figure among them
 * (candidates name one passage several times).
 */
public final class ImpactModel {

  /** Leaks further apart than this start a new exposure window. */
  public static final Duration EXPOSURE_GAP = Duration.ofHours(24);

  private ImpactModel() {}

  /** What the index scan contributes besides findings. */
  public record Inputs(
      List<Finding> findings,
      List<Window> vulnerableWindows,
      Map<Instant, Long> requestsPerHour,
      Coverage coverage,
      Map<String, Object> parameters,
      String index,
      Instant generatedAt) {}

  public static Report build(Inputs in) {
    Map<String, Response> leaks = leakedResponses(in.findings());
    Summary summary = summary(in.findings(), leaks);
    List<Window> windows = new ArrayList<>();
    for (Window vulnerable : in.vulnerableWindows()) {
      windows.add(vulnerable.withCount(countInWindow(vulnerable, in.findings())));
    }
    windows.addAll(exposureWindows(leaks.values()));
    return new Report(Report.REPORT_VERSION, in.generatedAt(), in.index(), summary, windows,
        sorted(in.findings()), tenants(leaks.values()), matrix(leaks.values()),
        timeline(in.findings(), leaks, in.requestsPerHour()), categories(in.findings(), leaks.keySet()),
        in.coverage(), in.parameters(), review(in.findings(), leaks.keySet()));
  }

  /**
   * The figures {@code findings} already settle before the text analysis has run: its over-length
   * and underrun findings, counted as {@link #build} counts them, and the vulnerable windows.
   */
  public static Preliminary preliminary(List<Finding> findings, List<Window> vulnerableWindows) {
    return new Preliminary(distinctRequests(findings, FindingKind.OVER_LENGTH_ACCEPTED, true).size(),
        distinctRequests(findings, FindingKind.PREFILL_UNDERRUN, true).size(), vulnerableWindows);
  }

  /** Tenant impact and the source x recipient matrix of some findings. */
  public record Tally(List<TenantImpact> tenants, List<MatrixCell> matrix) {}

  /**
   * The tenant table and the matrix of {@code findings} alone, by the report's counting rules (the
   * GUI recounts a selection of findings with it).
   */
  public static Tally tally(List<Finding> findings) {
    Map<String, Response> leaks = leakedResponses(findings);
    return new Tally(tenants(leaks.values()), matrix(leaks.values()));
  }

  /**
   * One leaked response with its sources merged across findings (other tenants' requests only).
   *
   * @param sources by source request id
   */
  public record Response(String requestId, String tenant, Instant time, String decodeNode, Map<String, Source> sources) {

    /**
     * The foreign tokens this response carried, as the report counts them: every sole source's, and
     * of the candidates the largest (foreign for sure, whichever candidate it was).
     */
    public long tokens() {
      return Source.carried(sources.values());
    }
  }

  /** The same source named twice: the larger token figure, and sole if either finding says so. */
  private static Source merge(Source a, Source b) {
    Source larger = a.matchedTokens() >= b.matchedTokens() ? a : b;
    boolean sole = a.sole() || b.sole();
    return sole == larger.sole() ? larger : new Source(larger.requestId(), larger.engineRid(), larger.tenant(),
        larger.matchedTokens(), larger.spans(), sole ? Attribution.SOLE : Attribution.CANDIDATE);
  }

  /** The leaked responses among {@code findings}, by request id, in the order their first finding came. */
  public static Map<String, Response> leakedResponses(List<Finding> findings) {
    Map<String, Response> responses = new LinkedHashMap<>();
    for (Finding finding : findings) {
      if (!finding.isCountedLeak() || finding.requestId() == null) {
        continue;
      }
      List<Source> foreign = finding.sources().stream()
          .filter(s -> s.tenant() == null || !s.tenant().equals(finding.tenant())).toList();
      if (foreign.isEmpty() && !finding.sources().isEmpty()) {
        continue; // only the tenant's own data: reuse, never a cross-tenant leak
      }
      Response response = responses.computeIfAbsent(finding.requestId(), id ->
          new Response(id, finding.tenant(), finding.time(), finding.decodeNode(), new LinkedHashMap<>()));
      for (Source source : foreign) {
        response.sources().merge(source.requestId(), source, ImpactModel::merge);
      }
    }
    return responses;
  }

  private static Summary summary(List<Finding> findings, Map<String, Response> leaks) {
    Set<String> sources = new HashSet<>();
    Set<String> victims = new HashSet<>();
    Set<String> sourcesPossible = new HashSet<>();
    Set<String> victimsPossible = new HashSet<>();
    Set<String> recipients = new HashSet<>();
    long tokens = 0;
    Instant first = null;
    Instant last = null;
    for (Response response : leaks.values()) {
      recipients.add(Tenants.nameOf(response.tenant()));
      for (Source source : response.sources().values()) {
        sourcesPossible.add(source.requestId());
        victimsPossible.add(Tenants.nameOf(source.tenant()));
        if (source.sole()) {
          sources.add(source.requestId());
          victims.add(Tenants.nameOf(source.tenant()));
        }
      }
      tokens += response.tokens();
      if (response.time() != null) {
        first = first == null || response.time().isBefore(first) ? response.time() : first;
        last = last == null || response.time().isAfter(last) ? response.time() : last;
      }
    }
    Set<String> sameTenant = distinctRequests(findings, FindingKind.SAME_TENANT_REUSE, true);
    sameTenant.removeAll(leaks.keySet());
    Set<String> suspect = new HashSet<>();
    for (Finding finding : findings) {
      if (finding.confidence() == Confidence.SUSPECT && finding.requestId() != null && !finding.kind().isConfig()) {
        suspect.add(finding.requestId());
      }
    }
    suspect.removeAll(leaks.keySet());
    return new Summary(leaks.size(), sources.size(), victims.size(), recipients.size(),
        distinctRequests(findings, FindingKind.OVER_LENGTH_ACCEPTED, true).size(),
        distinctRequests(findings, FindingKind.PREFILL_UNDERRUN, true).size(),
        first, last, tokens, sameTenant.size(), suspect.size(), sourcesPossible.size(), victimsPossible.size(),
        mayBeOwnTenantsData(findings, leaks.keySet()).size(), review(findings, leaks.keySet()).size());
  }

  /**
   * The review list: responses not leaked whose cross-tenant finding is text shared with one other
   * tenant on a response the engine logs show was served normally ({@link Evidence.OfLeak#forReview}),
   * one entry per response, in request order.
   */
  public static List<ReviewMatch> review(List<Finding> findings, Set<String> leaked) {
    Map<String, ReviewMatch> byRequest = new TreeMap<>();
    for (Finding f : findings) {
      if (!f.kind().isCrossTenantLeak() || f.requestId() == null || leaked.contains(f.requestId())
          || !(f.evidence() instanceof Evidence.OfLeak leak) || !leak.forReview()) {
        continue;
      }
      List<Source> foreign = f.sources().stream().filter(s -> s.tenant() == null || !s.tenant().equals(f.tenant()))
          .toList();
      int words = f.evidence() instanceof Evidence.Overlap o ? o.longestSpanTokens() : 0;
      byRequest.putIfAbsent(f.requestId(), new ReviewMatch(f.requestId(), f.tenant(), f.time(), f.id(),
          foreign.stream().map(s -> Tenants.nameOf(s.tenant())).distinct().toList(),
          foreign.stream().map(Source::requestId).toList(), words));
    }
    return List.copyOf(byRequest.values());
  }

  /**
   * Of the leaked responses {@code leaked}, those in which every counted finding is one the
   * recipient's own tenant also held ({@link #ownTenantAlsoHeld}): each may be its own data come
   * back, so the leaked count is a range whose lower end leaves them out.
   */
  public static Set<String> mayBeOwnTenantsData(List<Finding> findings, Set<String> leaked) {
    Set<String> beyondOwnTenant = new HashSet<>();
    for (Finding finding : findings) {
      if (leaked.contains(finding.requestId()) && finding.isCountedLeak() && !ownTenantAlsoHeld(finding)) {
        beyondOwnTenant.add(finding.requestId());
      }
    }
    Set<String> mayBeOwn = new HashSet<>(leaked);
    mayBeOwn.removeAll(beyondOwnTenant);
    return mayBeOwn;
  }

  /**
   * Whether the recipient's own tenant also held, within reach, everything another tenant's
   * requests held in {@code finding}: then the response may have carried its own tenant's data
   * back, and only the mechanism's order of likelihood says otherwise. Passages are compared by
   * where they lie in the response; a finding without passages (identifiers) counts when an own
   * request is among its sources, so the lower end of the count errs low, never high.
   */
  static boolean ownTenantAlsoHeld(Finding finding) {
    List<Source> own = finding.sources().stream()
        .filter(s -> s.tenant() != null && s.tenant().equals(finding.tenant())).toList();
    if (own.isEmpty()) {
      return false;
    }
    Set<List<Integer>> ownPassages = passages(own);
    return passages(finding.sources().stream().filter(s -> !own.contains(s)).toList()).stream()
        .allMatch(ownPassages::contains);
  }

  private static Set<List<Integer>> passages(List<Source> sources) {
    Set<List<Integer>> ranges = new HashSet<>();
    sources.forEach(s -> s.spans().forEach(span -> ranges.add(List.of(span.responseStart(), span.responseEnd()))));
    return ranges;
  }

  private static Set<String> distinctRequests(List<Finding> findings, FindingKind kind, boolean countedOnly) {
    Set<String> ids = new HashSet<>();
    for (Finding finding : findings) {
      if (finding.kind() == kind && finding.requestId() != null && (!countedOnly || finding.confidence().counts())) {
        ids.add(finding.requestId());
      }
    }
    return ids;
  }

  /** Leaked or over-length responses served by the window's node while it was open. */
  private static long countInWindow(Window window, List<Finding> findings) {
    Set<String> requests = new HashSet<>();
    for (Finding finding : findings) {
      boolean relevant = finding.isCountedLeak() || finding.kind() == FindingKind.OVER_LENGTH_ACCEPTED;
      boolean onNode = window.node() != null
          && (window.node().equals(finding.node()) || window.node().equals(finding.decodeNode()));
      if (relevant && onNode && finding.time() != null && finding.requestId() != null
          && !finding.time().isBefore(window.start()) && (window.end() == null || finding.time().isBefore(window.end()))) {
        requests.add(finding.requestId());
      }
    }
    return requests.size();
  }

  /** Leaks clustered per decode node: a gap longer than {@link #EXPOSURE_GAP} starts a new window. */
  private static List<Window> exposureWindows(Collection<Response> leaks) {
    // An unknown decode node is a window without a node (null), after the named ones.
    Map<String, List<Response>> byNode = new TreeMap<>(Comparator.nullsLast(Comparator.naturalOrder()));
    for (Response response : leaks) {
      if (response.time() != null) {
        byNode.computeIfAbsent(response.decodeNode(), n -> new ArrayList<>()).add(response);
      }
    }
    List<Window> windows = new ArrayList<>();
    byNode.forEach((node, responses) -> {
      responses.sort(Comparator.comparing(Response::time));
      Instant start = null;
      Instant end = null;
      long count = 0;
      for (Response response : responses) {
        if (start != null && Duration.between(end, response.time()).compareTo(EXPOSURE_GAP) > 0) {
          windows.add(new Window(Window.Kind.EXPOSURE, node, null, start, end, count, null));
          start = null;
        }
        if (start == null) {
          start = response.time();
          count = 0;
        }
        end = response.time();
        count++;
      }
      windows.add(new Window(Window.Kind.EXPOSURE, node, null, start, end, count, null));
    });
    return windows;
  }

  private static List<TenantImpact> tenants(Collection<Response> leaks) {
    Map<String, Side> victims = new TreeMap<>();
    Map<String, Side> recipients = new TreeMap<>();
    for (Response response : leaks) {
      String recipient = Tenants.nameOf(response.tenant());
      Side received = recipients.computeIfAbsent(recipient, t -> new Side());
      received.responses.add(response.requestId());
      received.received += response.tokens(); // foreign for sure, whoever of the candidates it was
      Map<String, List<Source>> byVictim = new TreeMap<>();
      for (Source source : response.sources().values()) {
        byVictim.computeIfAbsent(Tenants.nameOf(source.tenant()), t -> new ArrayList<>()).add(source);
        received.add(source, response.requestId());
      }
      // A victim's possible tokens in this response: its candidates name one passage, counted once.
      byVictim.forEach((victim, sources) -> {
        Side lost = victims.computeIfAbsent(victim, t -> new Side());
        sources.forEach(source -> lost.add(source, response.requestId()));
        lost.tokensPossible += Source.carried(sources);
      });
    }
    Set<String> all = new java.util.TreeSet<>(victims.keySet());
    all.addAll(recipients.keySet());
    List<TenantImpact> tenants = new ArrayList<>();
    for (String tenant : all) {
      Side v = victims.getOrDefault(tenant, new Side());
      Side r = recipients.getOrDefault(tenant, new Side());
      tenants.add(new TenantImpact(tenant,
          new TenantImpact.AsVictim(v.sources.size(), v.responses.size(), v.tokens, v.sourcesPossible.size(),
              v.responsesPossible.size(), v.tokensPossible),
          new TenantImpact.AsRecipient(r.responses.size(), r.sources.size(), r.received, r.sourcesPossible.size())));
    }
    return tenants;
  }

  /** One side of one tenant: sources and responses, sole attributions apart from candidates. */
  private static final class Side {
    final Set<String> sources = new HashSet<>();
    final Set<String> sourcesPossible = new HashSet<>();
    final Set<String> responses = new HashSet<>();
    final Set<String> responsesPossible = new HashSet<>();
    long tokens;
    /** As victim: its tokens in each response, its candidates' once per response ({@link Source#carried}). */
    long tokensPossible;
    /** As recipient: the foreign tokens its responses carried. */
    long received;

    void add(Source source, String response) {
      sourcesPossible.add(source.requestId());
      responsesPossible.add(response);
      if (source.sole()) {
        sources.add(source.requestId());
        responses.add(response);
        tokens += source.matchedTokens();
      }
    }
  }

  private static List<MatrixCell> matrix(Collection<Response> leaks) {
    Map<List<String>, Set<String>> sole = new HashMap<>();
    Map<List<String>, Set<String>> possible = new TreeMap<>(Comparator.comparing((List<String> k) -> k.get(0))
        .thenComparing(k -> k.get(1)));
    Map<List<String>, Long> tokens = new HashMap<>();
    for (Response response : leaks) {
      for (Source source : response.sources().values()) {
        List<String> key = List.of(Tenants.nameOf(source.tenant()), Tenants.nameOf(response.tenant()));
        possible.computeIfAbsent(key, k -> new HashSet<>()).add(response.requestId());
        if (source.sole()) {
          sole.computeIfAbsent(key, k -> new HashSet<>()).add(response.requestId());
          tokens.merge(key, source.matchedTokens(), Long::sum);
        }
      }
    }
    List<MatrixCell> cells = new ArrayList<>();
    possible.forEach((key, ids) -> cells.add(new MatrixCell(key.get(0), key.get(1),
        sole.getOrDefault(key, Set.of()).size(), tokens.getOrDefault(key, 0L), ids.size())));
    return cells;
  }

  private static List<HourCount> timeline(List<Finding> findings, Map<String, Response> leaks, Map<Instant, Long> requestsPerHour) {
    Map<Instant, long[]> hours = new TreeMap<>();
    requestsPerHour.forEach((hour, n) -> hours.computeIfAbsent(hour, h -> new long[4])[3] += n);
    for (Response response : leaks.values()) {
      if (response.time() != null) {
        hours.computeIfAbsent(response.time().truncatedTo(ChronoUnit.HOURS), h -> new long[4])[0]++;
      }
    }
    addDistinct(hours, findings, FindingKind.OVER_LENGTH_ACCEPTED, 1);
    addDistinct(hours, findings, FindingKind.PREFILL_UNDERRUN, 2);
    List<HourCount> timeline = new ArrayList<>();
    hours.forEach((hour, c) -> timeline.add(new HourCount(hour, c[0], c[1], c[2], c[3])));
    return timeline;
  }

  /**
   * The per-hour timeline of {@code findings} alone, by the report's counting rules (the GUI redraws
   * the timeline of a filtered selection with it); requests per hour are not known from findings
   * and stay 0.
   */
  public static List<HourCount> timeline(List<Finding> findings) {
    return timeline(findings, leakedResponses(findings), Map.of());
  }

  private static void addDistinct(Map<Instant, long[]> hours, List<Finding> findings, FindingKind kind, int column) {
    Set<String> seen = new HashSet<>();
    for (Finding finding : findings) {
      if (finding.kind() == kind && finding.confidence().counts() && finding.time() != null
          && finding.requestId() != null && seen.add(finding.requestId())) {
        hours.computeIfAbsent(finding.time().truncatedTo(ChronoUnit.HOURS), h -> new long[4])[column]++;
      }
    }
  }

  /** Responses per PII category, from the {@code categories} evidence of counted leak findings. */
  private static Map<String, Long> categories(List<Finding> findings, Set<String> leaked) {
    Map<String, Set<String>> byCategory = new TreeMap<>();
    for (Finding finding : findings) {
      if (finding.isCountedLeak() && leaked.contains(finding.requestId())
          && finding.evidence() instanceof Evidence.OfLeak leak) {
        for (String category : leak.categories()) {
          byCategory.computeIfAbsent(category, c -> new HashSet<>()).add(finding.requestId());
        }
      }
    }
    Map<String, Long> counts = new TreeMap<>();
    byCategory.forEach((category, ids) -> counts.put(category, (long) ids.size()));
    return counts;
  }

  /** Findings in a reading order: leaks first by confidence, then the rest, each by time. */
  private static List<Finding> sorted(List<Finding> findings) {
    return findings.stream()
        .sorted(Comparator.comparing((Finding f) -> f.kind().ordinal())
            .thenComparing(f -> f.confidence().ordinal())
            .thenComparing(f -> f.time() == null ? Instant.MIN : f.time())
            .thenComparing(Finding::id))
        .toList();
  }
}

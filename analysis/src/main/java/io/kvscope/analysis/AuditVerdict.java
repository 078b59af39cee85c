package io.kvscope.analysis;

import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * What fails a scheduled audit and what is only worth a look. Failing: a cross-tenant leak, an
 * over-length prompt accepted or a prefill underrun (confirmed or probable), and a vulnerable
 * config window. Warnings: the rest (missing safeguards, unknown or old versions with a safe
 * pool, same-tenant reuse, suspects).
 *
 * <p>An incremental audit fails only on what is new since its previous runs: what they already
 * reported as failing becomes a warning, so a closed incident stops failing every night. A window
 * still open fails every time: the incident is not over. Warnings earlier runs listed are marked
 * as such, so a nightly run need not list the same config warnings again.
 *
 * <p>Ids are what the evidence itself says, so more logs of the same incident do not rename an
 * item: a finding's id, a window's node and its start on the node's own clock ({@link Window#id()}).
 */
public record AuditVerdict(List<Item> failing, List<Item> warnings) {

  /**
   * A finding or a window: its id (the finding's id in report.json), when, what kind, the request
   * a finding is about (null for a window or a config finding), the rest in words, and whether an earlier audit already listed it as a warning (a failing item reported
   * before is listed once more, as a warning that says so, then no more).
   */
  public record Item(String id, Instant time, String kind, String request, String what, boolean warnedBefore) {}

  public AuditVerdict {
    failing = List.copyOf(failing);
    warnings = List.copyOf(warnings);
  }

  private static final String KNOWN = " (reported by an earlier audit)";

  public boolean clean() {
    return failing.isEmpty();
  }

  /**
   * What fails, counted as a responder counts it: distinct responses (a response with a leak, an
   * over-length prompt and a short prefill is one response, not three), vulnerable windows, and
   * any other failing finding.
   */
  public String failingCount() {
    long responses = failing.stream().map(Item::request).filter(java.util.Objects::nonNull).distinct().count();
    long windows = failing.stream().filter(i -> i.request() == null && i.kind().equals("vulnerable_window")).count();
    long other = failing.stream().filter(i -> i.request() == null && !i.kind().equals("vulnerable_window")).count();
    List<String> parts = new ArrayList<>();
    if (responses > 0) {
      parts.add(responses + (responses == 1 ? " response" : " responses"));
    }
    if (windows > 0) {
      parts.add(windows + (windows == 1 ? " vulnerable window" : " vulnerable windows"));
    }
    if (other > 0) {
      parts.add(other + (other == 1 ? " other finding" : " other findings"));
    }
    return parts.isEmpty() ? "nothing" : String.join(", ", parts);
  }

  /** The warnings no earlier audit reported. */
  public List<Item> newWarnings() {
    return warnings.stream().filter(item -> !item.warnedBefore()).toList();
  }

  /** The verdict on {@code report}, given the ids of failing items earlier audits reported. */
  public static AuditVerdict of(Report report, Set<String> reportedBefore) {
    return of(report, reportedBefore, Set.of());
  }

  /**
   * The verdict on {@code report}, given the ids of failing items and of warnings earlier audits
   * reported.
   */
  public static AuditVerdict of(Report report, Set<String> reportedBefore, Set<String> warnedBefore) {
    List<Item> failing = new ArrayList<>();
    List<Item> warnings = new ArrayList<>();
    for (Window window : report.windows()) {
      if (window.kind() != Window.Kind.VULNERABLE) {
        continue;
      }
      String id = window.id();
      boolean known = !window.open() && reportedBefore.contains(id);
      (known ? warnings : failing).add(new Item(id, window.start(), "vulnerable_window", null,
          "until " + (window.open() ? "now (open)" : window.end()) + (window.reason() == null ? "" : ", " + window.reason())
              + (known ? KNOWN : ""), known && warnedBefore.contains(id)));
    }
    for (Finding finding : report.findings()) {
      boolean known = reportedBefore.contains(finding.id());
      boolean fails = fails(finding) && !known;
      (fails ? failing : warnings).add(new Item(finding.id(), finding.time(), finding.kind().id(), finding.requestId(),
          describe(finding) + (known ? KNOWN : ""), !fails && warnedBefore.contains(finding.id())));
    }
    Comparator<Item> byTime = Comparator.comparing(Item::time, Comparator.nullsFirst(Comparator.naturalOrder()))
        .thenComparing(Item::id);
    failing.sort(byTime);
    warnings.sort(byTime);
    return new AuditVerdict(failing, warnings);
  }

  private static boolean fails(Finding finding) {
    FindingKind kind = finding.kind();
    return finding.confidence().counts() && (kind.isCrossTenantLeak() || kind == FindingKind.OVER_LENGTH_ACCEPTED
        || kind == FindingKind.PREFILL_UNDERRUN);
  }

  private static String describe(Finding f) {
    StringBuilder what = new StringBuilder(f.confidence().name().toLowerCase(java.util.Locale.ROOT));
    if (f.tenant() != null) {
      what.append(", tenant ").append(f.tenant());
    }
    String node = f.decodeNode() != null ? f.decodeNode() : f.node();
    if (node != null) {
      what.append(", node ").append(node);
    }
    if (!f.sources().isEmpty()) {
      what.append(", ").append(f.sources().size()).append(f.sources().size() == 1 ? " source" : " sources");
    }
    return what.toString();
  }
}

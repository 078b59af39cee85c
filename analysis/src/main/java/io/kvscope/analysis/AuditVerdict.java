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
 * still open fails every time: the incident is not over.
 */
public record AuditVerdict(List<Item> failing, List<Item> warnings) {

  /** A finding or a window: its id (the finding's id in report.json), when, what kind, and the rest in words. */
  public record Item(String id, Instant time, String kind, String what) {}

  public AuditVerdict {
    failing = List.copyOf(failing);
    warnings = List.copyOf(warnings);
  }

  private static final String KNOWN = " (reported by an earlier audit)";

  public boolean clean() {
    return failing.isEmpty();
  }

  /** The verdict on {@code report}, given the ids of failing items earlier audits reported. */
  public static AuditVerdict of(Report report, Set<String> reportedBefore) {
    List<Item> failing = new ArrayList<>();
    List<Item> warnings = new ArrayList<>();
    for (Window window : report.windows()) {
      if (window.kind() != Window.Kind.VULNERABLE) {
        continue;
      }
      String id = "window:" + window.node() + ":" + window.start();
      boolean known = !window.open() && reportedBefore.contains(id);
      (known ? warnings : failing).add(new Item(id, window.start(), "vulnerable_window",
          "until " + (window.open() ? "now (open)" : window.end()) + (window.reason() == null ? "" : ", " + window.reason())
              + (known ? KNOWN : "")));
    }
    for (Finding finding : report.findings()) {
      boolean known = reportedBefore.contains(finding.id());
      boolean fails = fails(finding) && !known;
      (fails ? failing : warnings).add(new Item(finding.id(), finding.time(), finding.kind().id(),
          describe(finding) + (known ? KNOWN : "")));
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

package io.kvscope.cli;

import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Preliminary;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.impact.Window;
import io.kvscope.analysis.report.CountNouns;
import io.kvscope.ingest.Printable;
import java.io.PrintStream;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The exposure summary a responder reads first: how many, whose, when, where, and is it over. */
final class SummaryPrinter {

  private SummaryPrinter() {}

  /** {@code 3}, or {@code 3-7} when candidate sources add to the sure count. */
  private static String range(long certain, long possible) {
    return possible > certain ? String.format("%,d-%,d", certain, possible) : String.format("%,d", certain);
  }

  /** {@link #range} with its noun: {@code 1 response}, but {@code 0-1 responses} and {@code 2 responses}. */
  private static String range(long certain, long possible, String noun) {
    return range(certain, possible) + " " + CountNouns.of(certain, possible, noun);
  }

  static void print(Report report, PrintStream out) {
    Summary s = report.summary();
    out.println("Exposure summary");
    out.printf("  leaked responses (cross-tenant, confirmed+probable): %,d%n", s.leakedResponses());
    if (s.leakedResponsesOwnTenantAlsoHeld() > 0) {
      out.printf("  (at least %,d for sure: in %,d the recipient's own tenant also held everything that leaked)%n",
          s.leakedResponsesAtLeast(), s.leakedResponsesOwnTenantAlsoHeld());
    }
    out.printf("  source requests whose data leaked:                   %s%n",
        range(s.sourceRequests(), s.sourceRequestsPossible()));
    out.printf("  victim tenants: %s    recipient tenants: %,d    tokens exposed: %,d%n",
        range(s.victimTenants(), s.victimTenantsPossible()), s.recipientTenants(), s.tokensExposed());
    if (s.sourceRequestsPossible() > s.sourceRequests()) {
      out.println("  (a range: sources known for sure, then every request that held a leaked passage too)");
    }
    out.printf("  over-length prompts accepted: %,d    prefill underruns: %,d%n", s.overLengthAccepted(), s.prefillUnderruns());
    out.printf("  same-tenant reuse (not cross-tenant): %,d    suspect only: %,d%n", s.sameTenantReuse(), s.suspectResponses());
    out.printf("  first exposure: %s    last exposure: %s%n", orDash(s.firstExposure()), orDash(s.lastExposure()));
    if (s.requestsWithDisagreeingCopies() > 0) {
      out.printf("  copies disagree: %,d %s logged more than once with different texts (every copy analyzed)%n",
          s.requestsWithDisagreeingCopies(), s.requestsWithDisagreeingCopies() == 1 ? "request" : "requests");
    }
    printVulnerable(report.windows().stream().filter(w -> w.kind() == Window.Kind.VULNERABLE).toList(), out);
    report.windows().stream().filter(w -> w.kind() == Window.Kind.EXPOSURE)
        .forEach(w -> out.printf("  exposure on %-16s %s .. %s  %,d %s%n", Printable.text(w.node()), w.start(), w.end(),
            w.count(), w.count() == 1 ? "response" : "responses"));
    if (report.tenants().stream().anyMatch(t -> t.asVictim().requestsPossible() > 0)) {
      out.println("Most affected tenants (as victim)");
      report.tenants().stream().filter(t -> t.asVictim().requestsPossible() > 0)
          .sorted(Comparator.comparingLong((TenantImpact t) -> t.asVictim().recipientsPossible()).reversed()
              .thenComparing(TenantImpact::tenant))
          .limit(5)
          .forEach(t -> out.printf("  %-20s %s leaked into %s (%s)%n", Printable.text(t.tenant()),
              range(t.asVictim().requests(), t.asVictim().requestsPossible(), "request"),
              range(t.asVictim().recipients(), t.asVictim().recipientsPossible(), "response"),
              range(t.asVictim().tokens(), t.asVictim().tokensPossible(), "token")));
    }
    if (!report.coverage().gaps().isEmpty() || report.coverage().requestsWithoutEngineLogs() > 0) {
      int gaps = report.coverage().gaps().size();
      out.printf("Coverage: %d log %s; %,d of %,d requests without engine logs, %,d without bodies%n",
          gaps, gaps == 1 ? "gap" : "gaps", report.coverage().requestsWithoutEngineLogs(), report.coverage().requests(),
          report.coverage().requestsWithoutBodies());
    }
  }

  /**
   * The figures known before the text analysis, marked as such: they equal the final summary's
   * (the same counting rules) and say nothing yet of leaked responses.
   */
  static void printPreliminary(Preliminary p, PrintStream out) {
    out.println("Preliminary exposure summary (so far: engine facts and config epochs; text analysis running)");
    out.printf("  over-length prompts accepted: %,d    prefill underruns: %,d%n", p.overLengthAccepted(), p.prefillUnderruns());
    out.println("  leaked responses: not known yet (the text analysis finds them; the exposure summary follows)");
    printVulnerable(p.vulnerableWindows(), out);
  }

  /** Each vulnerable window, and whether any is still open. */
  private static void printVulnerable(List<Window> vulnerable, PrintStream out) {
    long openWindows = vulnerable.stream().filter(Window::open).count();
    out.println("Vulnerable windows (pool < context on an unpatched engine)"
        + (openWindows > 0 ? ": " + openWindows + " STILL OPEN" : vulnerable.isEmpty() ? ": none" : ": all closed"));
    vulnerable.forEach(w -> out.printf("  %-24s %s .. %s  %s%n", Printable.text(w.node()), w.start(),
        w.open() ? "(open)" : w.end(), Printable.text(w.reason())));
    if (vulnerable.stream().anyMatch(Window::versionUnknown)) {
      out.println("  engine version unknown on some nodes: no SGLang log line names the release; add deployment"
          + " records (docs/formats.md, Deployment records) to tell patched from unpatched");
    }
  }

  /** One line per finding kind: {@code kind: N findings (M confirmed)}. */
  static void printKinds(Report report, PrintStream out) {
    Map<FindingKind, long[]> counts = new EnumMap<>(FindingKind.class);
    for (Finding f : report.findings()) {
      long[] c = counts.computeIfAbsent(f.kind(), k -> new long[3]);
      c[f.confidence().ordinal()]++;
    }
    counts.forEach((kind, c) -> out.printf("%-30s %,6d  (confirmed %,d, probable %,d, suspect %,d)%n",
        kind.id(), c[0] + c[1] + c[2], c[0], c[1], c[2]));
  }

  private static String orDash(Object value) {
    return value == null ? "-" : value.toString();
  }
}

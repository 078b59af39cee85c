package io.kvscope.analysis;

import io.kvscope.analysis.analyzers.CandidatePairs;
import io.kvscope.analysis.analyzers.CrossTenantOverlap;
import io.kvscope.analysis.analyzers.OverLengthAccepted;
import io.kvscope.analysis.analyzers.PrefillUnderrun;
import io.kvscope.analysis.analyzers.VulnerableWindows;
import io.kvscope.analysis.impact.EvidenceUsed;
import io.kvscope.model.finding.Finding;
import io.kvscope.analysis.impact.ImpactModel;
import io.kvscope.analysis.impact.Preliminary;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.analysis.impact.Window;
import io.kvscope.index.doc.TextCopies;
import io.kvscope.index.Checkpoint;
import io.kvscope.index.IndexSearch;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One analysis run: every analyzer over the index, each after those it requires, then the impact
 * model. This is the step between the index and every output (writers, audit, GUI).
 */
public final class Analysis {

  /**
   * The analyzers whose findings settle the {@link Preliminary} figures: they run first
   * ({@link Analyzers#ordered(List, Set)}), and once they have, the figures are told.
   */
  public static final Set<String> PRELIMINARY_NEEDS = Set.of(OverLengthAccepted.NAME, PrefillUnderrun.NAME);

  /** Told as each analyzer starts, so long runs can show progress, and told the first figures as soon as they are known. */
  public interface Progress {
    void analyzer(String name, int index, int count);

    /**
     * The figures known before the text analysis, once per run, as soon as {@link #PRELIMINARY_NEEDS}
     * have run (never when one of them is not among the analyzers). Called from the analysing thread.
     */
    default void preliminary(Preliminary figures) {}

    Progress NONE = (name, index, count) -> {};
  }

  private final List<Analyzer> analyzers;
  private final Clock clock;

  public Analysis(List<Analyzer> analyzers, Clock clock) {
    this.analyzers = Analyzers.ordered(analyzers, PRELIMINARY_NEEDS);
    this.clock = clock;
  }

  public static Analysis standard() {
    return new Analysis(Analyzers.discover(), Clock.systemUTC());
  }

  /** The standard analysis with the general join's candidate pairs taken from {@code pairs}. */
  public static Analysis standard(CandidatePairs pairs) {
    return new Analysis(Analyzers.discover().stream()
        .map(a -> a instanceof CrossTenantOverlap ? new CrossTenantOverlap(pairs) : a).toList(), Clock.systemUTC());
  }

  public Report run(IndexSearch index, AnalysisOptions options, Progress progress) throws IOException {
    AnalysisContext context = new AnalysisContext(index, options);
    List<Finding> findings = new ArrayList<>();
    Map<String, Double> seconds = new java.util.LinkedHashMap<>(); // what each step cost, for capacity planning
    Set<String> toldAfter = new HashSet<>(PRELIMINARY_NEEDS);
    for (int i = 0; i < analyzers.size(); i++) {
      Analyzer analyzer = analyzers.get(i);
      progress.analyzer(analyzer.name(), i, analyzers.size());
      long started = System.nanoTime();
      int before = findings.size();
      context.run(analyzer, findings::add);
      seconds.put(analyzer.name(), Math.round((System.nanoTime() - started) / 1e8) / 10.0);
      if (toldAfter.isEmpty()) {
        refuseLateMechanism(analyzer, findings.subList(before, findings.size()));
      } else if (toldAfter.remove(analyzer.name()) && toldAfter.isEmpty()) {
        progress.preliminary(ImpactModel.preliminary(findings, vulnerableWindows(context, options, findings)));
      }
    }
    CoverageScan coverage = new CoverageScan();
    context.forEachRequest(coverage::add);
    Map<String, Object> parameters = new TreeMap<>(context.parameters());
    parameters.put("analyzers", analyzers.stream().map(Analyzer::name).toList());
    parameters.put("analyzer_seconds", seconds);
    parameters.put("since", options.since() == null ? null : options.since().toString());
    parameters.put("until", options.until() == null ? null : options.until().toString());
    parameters.put("min_span_tokens", options.minSpanTokens());
    parameters.put("source_horizon", options.sourceHorizon().toString());
    if (index.beingWritten()) {
      parameters.put("index_being_written", "an ingest was writing to the index: its last commit was analyzed, files"
          + " still being read are missing or partial");
    }
    parameters.values().removeIf(java.util.Objects::isNull);
    Report report = ImpactModel.build(new ImpactModel.Inputs(findings,
        vulnerableWindows(context, options, findings), coverage.requestsPerHour(),
        coverage.coverage(index.reader(), context.epochs().identity()), parameters,
        // Absolute, so the commands the reports print (reveal) work from the reports' folder.
        index.path().toAbsolutePath().normalize().toString(), clock.instant()));
    Summary summary = report.summary().withRequestsWithDisagreeingCopies(TextCopies.requestsWithCopies(index.reader()));
    return report.withEvidence(evidence(index)).withSummary(summary);
  }

  /**
   * The preliminary figures were told as final: a finding of a kind they are made of, from an
   * analyzer that ran after them, would make them claim less than the report (a window told closed
   * that the report keeps open). Such an analyzer belongs in {@link #PRELIMINARY_NEEDS}.
   */
  private static void refuseLateMechanism(Analyzer analyzer, List<Finding> emitted) {
    for (Finding finding : emitted) {
      if (Preliminary.MADE_OF.contains(finding.kind())) {
        throw new IllegalStateException("analyzer '" + analyzer.name() + "' emits " + finding.kind().id()
            + " findings after the preliminary figures were told; add it to Analysis.PRELIMINARY_NEEDS");
      }
    }
  }

  /** The windows of the preliminary figures and of the report: one rule, over the findings so far. */
  private static List<Window> vulnerableWindows(AnalysisContext context, AnalysisOptions options, List<Finding> findings)
      throws IOException {
    return VulnerableWindows.of(context.epochs(), context.clocks(), options.fixedVersion(), findings,
        context.failedTransfers());
  }

  /** The files the index was built from, as its checkpoints recorded them at ingest. */
  static EvidenceUsed evidence(IndexSearch index) throws IOException {
    List<EvidenceUsed.File> files = new ArrayList<>();
    for (Checkpoint c : Checkpoint.all(index.reader())) {
      files.add(new EvidenceUsed.File(c.path(), c.format(), c.size(), c.sha256(), c.records(), c.bad(), c.complete()));
    }
    return new EvidenceUsed(null, files);
  }
}

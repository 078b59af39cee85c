package io.kvscope.analysis;

import io.kvscope.analysis.analyzers.VulnerableWindows;
import io.kvscope.analysis.impact.EvidenceUsed;
import io.kvscope.model.finding.Finding;
import io.kvscope.analysis.impact.ImpactModel;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.index.TextCopies;
import io.kvscope.index.Checkpoint;
import io.kvscope.index.IndexSearch;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One analysis run: every analyzer over the index, each after those it requires, then the impact
 * model. This is the step between the index and every output (writers, audit, GUI).
 */
public final class Analysis {

  /** Told as each analyzer starts, so long runs can show progress. */
  public interface Progress {
    void analyzer(String name, int index, int count);

    Progress NONE = (name, index, count) -> {};
  }

  private final List<Analyzer> analyzers;
  private final Clock clock;

  public Analysis(List<Analyzer> analyzers, Clock clock) {
    this.analyzers = Analyzers.ordered(analyzers);
    this.clock = clock;
  }

  public static Analysis standard() {
    return new Analysis(Analyzers.discover(), Clock.systemUTC());
  }

  public Report run(IndexSearch index, AnalysisOptions options, Progress progress) throws IOException {
    AnalysisContext context = new AnalysisContext(index, options);
    List<Finding> findings = new ArrayList<>();
    Map<String, Double> seconds = new java.util.LinkedHashMap<>(); // what each step cost, for capacity planning
    for (int i = 0; i < analyzers.size(); i++) {
      Analyzer analyzer = analyzers.get(i);
      progress.analyzer(analyzer.name(), i, analyzers.size());
      long started = System.nanoTime();
      context.run(analyzer, findings::add);
      seconds.put(analyzer.name(), Math.round((System.nanoTime() - started) / 1e8) / 10.0);
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
        VulnerableWindows.of(context.epochs(), context.clocks(), options.fixedVersion(), findings), coverage.requestsPerHour(),
        coverage.coverage(index.reader(), context.epochs().identity()), parameters,
        // Absolute, so the commands the reports print (reveal) work from the reports' folder.
        index.path().toAbsolutePath().normalize().toString(), clock.instant()));
    Summary summary = report.summary().withRequestsWithDisagreeingCopies(TextCopies.requestsWithCopies(index.reader()));
    return report.withEvidence(evidence(index)).withSummary(summary);
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

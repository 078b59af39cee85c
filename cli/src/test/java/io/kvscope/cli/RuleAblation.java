package io.kvscope.cli;

import io.kvscope.analysis.Analysis;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.Analyzer;
import io.kvscope.analysis.Analyzers;
import io.kvscope.analysis.analyzers.CrossTenantOverlap;
import io.kvscope.analysis.analyzers.IdentifierLeaks;
import io.kvscope.analysis.impact.Report;
import io.kvscope.index.IndexSearch;
import io.kvscope.samples.truth.GroundTruth;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Developer tool (test sources): what each evidence rule removes. Analyzes an index once with all
 * rules and once without each rule named, and prints the quality figures of each run. Arguments:
 * the index, the incident's truth.json, then rule names ({@code same-answer}, {@code text-alone},
 * ...; a name applies to passages and identifiers alike).
 */
public final class RuleAblation {

  private RuleAblation() {}

  public static void main(String[] args) throws Exception {
    Path index = Path.of(args[0]);
    GroundTruth truth = GroundTruth.load(Path.of(args[1]));
    List<String> rules = new ArrayList<>(List.of(""));
    rules.addAll(List.of(args).subList(2, args.length));
    try (IndexSearch search = IndexSearch.open(index)) {
      for (String rule : rules) {
        Set<String> without = rule.isEmpty() ? Set.of() : Set.of(rule);
        List<Analyzer> analyzers = new ArrayList<>();
        for (Analyzer a : Analyzers.discover()) {
          analyzers.add(a instanceof CrossTenantOverlap ? new CrossTenantOverlap(without)
              : a instanceof IdentifierLeaks ? new IdentifierLeaks(without) : a);
        }
        Report report = new Analysis(analyzers, Clock.systemUTC()).run(search, AnalysisOptions.defaults(),
            io.kvscope.analysis.Analysis.Progress.NONE);
        QualityScore score = QualityScore.of(truth, report);
        long suspect = report.summary().suspectResponses();
        System.out.printf("%-24s found %d of %d leaked, %d wrong (%d confirmed), %d missed, %d suspect responses;"
                + " true sources named %d/%d, sole right %d/%d%n",
            rule.isEmpty() ? "(all rules)" : "without " + rule, score.leakedFound().size(), score.leakedTruth().size(),
            wrong(score), score.confirmedFalsePositives().size(), missed(score), suspect, score.trueSourcesNamed(),
            score.trueSources(), score.soleAttributionsRight(), score.soleAttributions());
      }
    }
  }

  private static long wrong(QualityScore s) {
    return s.falseLeaks().size();
  }

  private static long missed(QualityScore s) {
    return s.missedLeaks().size();
  }
}

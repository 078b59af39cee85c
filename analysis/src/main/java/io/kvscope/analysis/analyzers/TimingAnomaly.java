package io.kvscope.analysis.analyzers;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.Analyzer;
import io.kvscope.analysis.RobustStats;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.model.order.StableSample;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Time to first token far below what a prompt of that uncached length takes on that deployment.
 * Prefill time grows with the tokens actually computed, so the fit is TTFT against uncached tokens
 * (prompt minus prefix-cache hits): a cache hit is a legitimately fast prefill and is not flagged.
 * The fit is Theil-Sen per deployment over healthy requests, robust to the anomalies it looks for.
 */
public final class TimingAnomaly implements Analyzer {

  /** The analyzer's name: its key in findings, timings and the requires lists of others. */
  public static final String NAME = "timing-anomaly";

  private static final int MAX_FIT_POINTS = 5_000;
  private static final int MIN_FIT_POINTS = 20;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "TTFT far below a robust per-deployment fit of TTFT against uncached prompt tokens";
  }


  @Override
  public void analyze(AnalysisContext context, Consumer<Finding> findings) throws IOException {
    PromptLengths lengths = PromptLengths.learn(context);
    Map<String, Points> points = new HashMap<>();
    context.forEachRequest(row -> {
      Long ttft = row.record().ttftMillis();
      PromptLengths.Length length = lengths.of(row);
      if (ttft == null || length == null || !row.record().succeeded() || row.facts().rejected() || ttft < 0) {
        return;
      }
      if (row.record().engineInputLen() != null && row.record().engineInputLen() < length.tokens() / 2) {
        return; // an underrun: exactly what the fit must not learn from
      }
      points.computeIfAbsent(deploymentOf(row.record()), d -> new Points())
          .add(row.record().requestId(), uncached(row.record(), length), ttft);
    });
    Map<String, RobustStats.Line> fits = new HashMap<>();
    points.forEach((deployment, p) -> {
      List<double[]> sample = p.sample.values();
      if (sample.size() >= MIN_FIT_POINTS) {
        double[] x = sample.stream().mapToDouble(point -> point[0]).toArray();
        double[] y = sample.stream().mapToDouble(point -> point[1]).toArray();
        RobustStats.Line line = RobustStats.theilSen(x, y, sample.size());
        fits.put(deployment, line);
        Map<String, Object> fit = new LinkedHashMap<>(); // in this order in every run, unlike Map.of
        fit.put("intercept_ms", round(line.intercept()));
        fit.put("ms_per_1k_tokens", round(line.slope() * 1000));
        fit.put("points", line.points());
        context.parameter(NAME + ".fit." + deployment, fit);
      }
    });
    double factor = context.options().timingFactor();
    long minUncached = context.options().minUncachedForTiming();
    context.parameter(NAME + ".factor", factor);
    context.parameter(NAME + ".min_uncached_tokens", minUncached);
    context.forEachRequest(row -> {
      RobustStats.Line fit = fits.get(deploymentOf(row.record()));
      Long ttft = row.record().ttftMillis();
      PromptLengths.Length length = lengths.of(row);
      if (fit == null || ttft == null || length == null || !row.record().succeeded()) {
        return;
      }
      long uncached = uncached(row.record(), length);
      double expected = fit.at(uncached);
      if (uncached < minUncached || expected <= 0 || ttft >= factor * expected) {
        return;
      }
      Evidence.Timing evidence = new Evidence.Timing(RequestFindings.statusCode(row), row.record().prefillNode(),
          row.record().deployment(), uncached, Math.round(expected), ttft, round(ttft / expected));
      findings.accept(RequestFindings.of(FindingKind.TIMING_ANOMALY, Confidence.SUSPECT, row, evidence));
    });
  }

  private static long uncached(RequestRecord r, PromptLengths.Length length) {
    long cached = r.cachedTokens() == null ? 0 : r.cachedTokens();
    return Math.max(0, length.tokens() - cached);
  }

  private static String deploymentOf(RequestRecord r) {
    return r.deployment() != null ? r.deployment() : r.model() != null ? r.model() : "(unknown)";
  }

  private static double round(double value) {
    return Math.round(value * 1000) / 1000.0;
  }

  /**
   * A bounded sample of (uncached tokens, TTFT) points: every point until full, then those whose
   * request ids hash lowest, so later traffic shapes the fit as much as early traffic and the fit
   * is the same whatever order the requests were read in.
   */
  private static final class Points {
    final StableSample<double[]> sample = new StableSample<>(MAX_FIT_POINTS);

    void add(String requestId, double tokens, double ttft) {
      sample.offer(requestId, new double[] {tokens, ttft});
    }
  }
}

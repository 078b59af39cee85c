package io.kvscope.probe.canary;

import io.kvscope.analysis.RobustStats;
import java.util.List;

/**
 * How long this deployment takes to prefill a prompt, from the first-token times of the fill and
 * normal prompts (a Theil-Sen line, as the timing analysis fits logs). An over-length prompt of L
 * tokens that is really prefilled takes at least {@code slope * L}; a first token far sooner
 * means most of it was never computed (the incident's one-token stub).
 *
 * @param slopeMsPerToken prefill milliseconds per prompt token
 * @param usable false when the everyday prompts cannot show a prefill rate, with the reason
 */
public record PrefillFit(double slopeMsPerToken, double interceptMs, int points, boolean usable, String why) {

  static final int MIN_POINTS = 4;

  static PrefillFit of(List<Exchange> exchanges) {
    List<Exchange> timed = exchanges.stream()
        .filter(e -> !e.kind().overLength() && e.accepted() && e.ttftMs() != null)
        .toList();
    if (timed.size() < MIN_POINTS) {
      return new PrefillFit(0, 0, timed.size(), false, "fewer than " + MIN_POINTS + " everyday prompts were answered with a timed first token");
    }
    double[] x = new double[timed.size()];
    double[] y = new double[timed.size()];
    for (int i = 0; i < x.length; i++) {
      x[i] = timed.get(i).judgedTokens();
      y[i] = timed.get(i).ttftMs();
    }
    RobustStats.Line line = RobustStats.theilSen(x, y, x.length);
    if (!(line.slope() > 0)) {
      return new PrefillFit(line.slope(), line.intercept(), x.length, false,
          "first-token times did not grow with prompt length (overhead-bound or prefix-cached)");
    }
    return new PrefillFit(line.slope(), line.intercept(), x.length, true, null);
  }

  /** The least time a real prefill of {@code tokens} takes: the slope alone, no overhead. */
  double minimumMs(long tokens) {
    return slopeMsPerToken * tokens;
  }
}

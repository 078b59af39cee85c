package io.kvscope.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The few robust statistics the analyzers need. Written here rather than pulled in: a median and
 * a Theil-Sen slope are a dozen lines, and the maintained statistics libraries for Java are large
 * and slow-moving for so little.
 */
public final class RobustStats {

  private RobustStats() {}

  public static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** A line fitted robustly: half the points can be outliers without moving it much. */
  public record Line(double intercept, double slope, int points) {
    public double at(double x) {
      return intercept + slope * x;
    }
  }

  /**
   * Theil-Sen: the median slope over point pairs (a fixed-seed sample of pairs when there are
   * many, so the fit is deterministic), and the median intercept for that slope. The points are
   * sorted first, so the sample and the fit do not depend on the order they came in (index
   * document order, which concurrent ingest and merges change from run to run).
   */
  public static Line theilSen(double[] xIn, double[] yIn, int n) {
    double[] x = new double[n];
    double[] y = new double[n];
    sortedPoints(xIn, yIn, n, x, y);
    SplittableRandom random = new SplittableRandom(0x6b7673636f7065L);
    List<Double> slopes = new ArrayList<>();
    long allPairs = (long) n * (n - 1) / 2;
    if (allPairs <= 50_000) {
      for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
          addSlope(x, y, i, j, slopes);
        }
      }
    } else {
      for (int k = 0; k < 50_000; k++) {
        addSlope(x, y, random.nextInt(n), random.nextInt(n), slopes);
      }
    }
    double slope = slopes.isEmpty() ? 0 : median(slopes);
    List<Double> intercepts = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      intercepts.add(y[i] - slope * x[i]);
    }
    return new Line(median(intercepts), slope, n);
  }

  private static void sortedPoints(double[] xIn, double[] yIn, int n, double[] x, double[] y) {
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (a, b) -> {
      int byX = Double.compare(xIn[a], xIn[b]);
      return byX != 0 ? byX : Double.compare(yIn[a], yIn[b]);
    });
    for (int i = 0; i < n; i++) {
      x[i] = xIn[order[i]];
      y[i] = yIn[order[i]];
    }
  }

  private static void addSlope(double[] x, double[] y, int i, int j, List<Double> slopes) {
    if (x[i] != x[j]) {
      slopes.add((y[j] - y[i]) / (x[j] - x[i]));
    }
  }
}

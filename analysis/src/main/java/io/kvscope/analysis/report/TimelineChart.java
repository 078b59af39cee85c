package io.kvscope.analysis.report;

import io.kvscope.analysis.impact.HourCount;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The timeline of report.html as inline SVG: four bar rows sharing one time axis (requests, the
 * traffic; leaked responses, over-length admissions, prefill underruns; per hour, or per few hours
 * when the incident is longer than a month), each on its own scale so a rare series is not flattened by a frequent one,
 * and below them one lane per node with its vulnerable windows shaded and a lane of exposure
 * windows. Hovering shows the numbers ({@code <title>}), without any script.
 */
final class TimelineChart {

  static final int WIDTH = 1180;
  private static final int LEFT = 180;
  private static final int RIGHT = 24;
  private static final int TOP = 30;
  private static final int ROW_HEIGHT = 56;
  private static final int ROW_GAP = 12;
  private static final int AXIS_HEIGHT = 26;
  private static final int LANE_HEIGHT = 20;
  private static final int MAX_LANES = 16;
  /** Hourly bars for a month; longer incidents get bars of a few hours. */
  private static final int MAX_BUCKETS = 24 * 31;
  private static final int MAX_TICKS = 40;

  static final String TRAFFIC_COLOR = "#90a4ae";
  static final String EXPOSURE_COLOR = "#c62828";
  static final String OVER_LENGTH_COLOR = "#ef6c00";
  static final String UNDERRUN_COLOR = "#6a1b9a";
  static final String VULNERABLE_COLOR = "#f9a825";

  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("MM-dd", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter YEAR_DAY = DateTimeFormatter.ofPattern("uuuu-MM-dd", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter DAY_HOUR = DateTimeFormatter.ofPattern("MM-dd HH:mm", Locale.ROOT).withZone(ZoneOffset.UTC);

  private TimelineChart() {}

  /** The SVG, or null when there is nothing in time to draw. */
  static String svg(Report report, Map<String, List<Window>> vulnerableByNode, List<Window> exposures) {
    Instant from = null;
    Instant to = null;
    for (HourCount h : report.timeline()) {
      from = min(from, h.hour());
      to = max(to, h.hour().plus(Duration.ofHours(1)));
    }
    for (Window w : report.windows()) {
      from = min(from, w.start());
      to = max(to, w.end() == null ? w.start() : w.end());
    }
    if (from == null) {
      return null;
    }
    from = from.truncatedTo(ChronoUnit.HOURS);
    to = to.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1));
    long hours = Math.max(1, Duration.between(from, to).toHours());
    long bucketHours = Math.max(1, (hours + MAX_BUCKETS - 1) / MAX_BUCKETS);
    int buckets = (int) ((hours + bucketHours - 1) / bucketHours);
    to = from.plus(Duration.ofHours((long) buckets * bucketHours));

    long[] exposed = new long[buckets];
    long[] overLength = new long[buckets];
    long[] underrun = new long[buckets];
    long[] requests = new long[buckets];
    for (HourCount h : report.timeline()) {
      int b = (int) (Duration.between(from, h.hour()).toHours() / bucketHours);
      if (b >= 0 && b < buckets) {
        exposed[b] += h.exposures();
        overLength[b] += h.overLengthAccepted();
        underrun[b] += h.prefillUnderruns();
        requests[b] += h.requests();
      }
    }
    // Traffic on top: a rise in leaks reads against how many requests there were at the time.
    List<Series> series = List.of(
        new Series("requests", requests, TRAFFIC_COLOR),
        new Series("leaked responses", exposed, EXPOSURE_COLOR),
        new Series("over-length accepted", overLength, OVER_LENGTH_COLOR),
        new Series("prefill underruns", underrun, UNDERRUN_COLOR));

    List<String> nodes = new ArrayList<>(vulnerableByNode.keySet());
    int shownNodes = Math.min(MAX_LANES, nodes.size());
    int lanes = shownNodes + 1 + (nodes.size() > shownNodes ? 1 : 0);
    int plotBottom = TOP + series.size() * (ROW_HEIGHT + ROW_GAP) - ROW_GAP;
    int lanesTop = plotBottom + AXIS_HEIGHT + 14;
    int height = lanesTop + lanes * LANE_HEIGHT + 10;

    Scale x = new Scale(from, to, LEFT, WIDTH - RIGHT);
    StringBuilder svg = new StringBuilder(64 * 1024);
    svg.append("<svg class=\"timeline\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height)
        .append("\" width=\"100%\" role=\"img\" aria-label=\"Timeline of requests, leaked responses, over-length"
            + " admissions and underruns, with vulnerable windows per node\">");
    svg.append(text(LEFT, 18, "start", "legend-note", (bucketHours == 1 ? "per hour" : "per " + bucketHours + " hours")
        + "; hover a bar for its numbers"));

    // Day lines behind everything; beyond a few months, whole days spaced for at most MAX_TICKS.
    long spanHours = Duration.between(from, to).toHours();
    long tickHours = spanHours <= 36 ? 3 : spanHours <= 96 ? 12 : spanHours <= 24 * 21 ? 24 : 24 * 7;
    if (spanHours / tickHours > MAX_TICKS) {
      tickHours = 24 * ((spanHours / MAX_TICKS + 23) / 24);
    }
    List<Instant> ticks = new ArrayList<>();
    for (Instant tick = from.truncatedTo(ChronoUnit.DAYS); tick.isBefore(to); tick = tick.plus(Duration.ofHours(tickHours))) {
      if (!tick.isBefore(from)) {
        ticks.add(tick);
        svg.append(line(x.at(tick), TOP, x.at(tick), plotBottom, "#eef0f2", 1));
      }
    }

    double bucketWidth = (double) (WIDTH - RIGHT - LEFT) / buckets;
    double barWidth = Math.max(1, bucketWidth - (bucketWidth > 4 ? 1 : 0));
    for (int row = 0; row < series.size(); row++) {
      Series one = series.get(row);
      int rowTop = TOP + row * (ROW_HEIGHT + ROW_GAP);
      int rowBottom = rowTop + ROW_HEIGHT;
      long rowMax = 0;
      long total = 0;
      for (long v : one.values()) {
        rowMax = Math.max(rowMax, v);
        total += v;
      }
      long yMax = niceCeiling(Math.max(1, rowMax));
      svg.append(line(LEFT, rowBottom, WIDTH - RIGHT, rowBottom, "#b0bec5", 1));
      svg.append(line(LEFT, rowTop, WIDTH - RIGHT, rowTop, "#f1f3f5", 1));
      svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"4\" height=\"%d\" fill=\"%s\"/>",
          LEFT - 176, rowTop + 4, ROW_HEIGHT - 8, one.color()));
      svg.append(text(LEFT - 166, rowTop + 18, "start", "series", one.name()));
      svg.append(text(LEFT - 166, rowTop + 34, "start", "series-total", ReportView.number(total) + " in all"));
      svg.append(text(LEFT - 6, rowTop + 10, "end", "axis", Long.toString(yMax)));
      svg.append(text(LEFT - 6, rowBottom, "end", "axis", "0"));
      for (int b = 0; b < buckets; b++) {
        if (one.values()[b] == 0) {
          continue;
        }
        double h = Math.max(1.5, ROW_HEIGHT * (double) one.values()[b] / yMax);
        Instant start = from.plus(Duration.ofHours((long) b * bucketHours));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
            LEFT + b * bucketWidth, rowBottom - h, barWidth, h, one.color()));
        svg.append("<title>").append(Html.esc(ReportView.time(start) + (bucketHours == 1 ? "" : " +" + bucketHours + "h")
            + ": " + exposed[b] + " leaked, " + overLength[b]
            + " over-length, " + underrun[b] + " underruns, " + requests[b] + " requests")).append("</title></rect>");
      }
    }

    // Time axis.
    for (Instant tick : ticks) {
      double tx = x.at(tick);
      svg.append(line(tx, plotBottom, tx, plotBottom + 5, "#90a4ae", 1));
      svg.append(text(tx, plotBottom + 18, "middle", "axis",
          (tickHours < 24 ? DAY_HOUR : spanHours > 24 * 300 ? YEAR_DAY : DAY).format(tick)));
    }

    // Lanes: vulnerable windows per node, then exposure windows.
    svg.append(text(LEFT - 176, lanesTop - 4, "start", "lane-title", "vulnerable windows, per node"));
    int lane = 0;
    for (int i = 0; i < shownNodes; i++) {
      String node = nodes.get(i);
      double y = lanesTop + lane * LANE_HEIGHT;
      laneBackground(svg, y, lane);
      svg.append(text(LEFT - 8, y + 14, "end", "lane", Html.cut(node, 22)));
      for (Window w : vulnerableByNode.get(node)) {
        windowBar(svg, x, w, to, y, VULNERABLE_COLOR,
            node + " vulnerable " + ReportView.time(w.start()) + " \u2192 " + (w.open() ? "open" : ReportView.time(w.end()))
                + (w.reason() == null ? "" : " (" + w.reason() + ")"));
      }
      lane++;
    }
    if (nodes.size() > shownNodes) {
      double y = lanesTop + lane * LANE_HEIGHT;
      svg.append(text(LEFT - 8, y + 14, "end", "lane", "+" + (nodes.size() - shownNodes) + " more nodes"));
      lane++;
    }
    double y = lanesTop + lane * LANE_HEIGHT;
    laneBackground(svg, y, lane);
    svg.append(text(LEFT - 8, y + 14, "end", "lane exposure-lane", "exposure"));
    for (Window w : exposures) {
      windowBar(svg, x, w, to, y, EXPOSURE_COLOR, "exposure on " + ReportView.orDash(w.node()) + " "
          + ReportView.time(w.start()) + " \u2192 " + (w.open() ? "open" : ReportView.time(w.end())) + ", " + w.count()
          + " leaked");
    }
    svg.append("</svg>");
    return svg.toString();
  }

  private static void laneBackground(StringBuilder svg, double y, int lane) {
    svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"%s\"/>",
        LEFT, y, WIDTH - RIGHT - LEFT, LANE_HEIGHT, lane % 2 == 0 ? "#fafafa" : "#f3f4f6"));
  }

  private static void windowBar(StringBuilder svg, Scale x, Window w, Instant to, double y, String color, String title) {
    double x0 = x.at(w.start());
    double x1 = x.at(w.open() ? to : w.end());
    double width = Math.max(2, x1 - x0);
    svg.append(String.format(Locale.ROOT,
        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" rx=\"2\" fill=\"%s\" fill-opacity=\"0.55\" stroke=\"%s\">",
        x0, y + 3, width, LANE_HEIGHT - 6, color, color));
    svg.append("<title>").append(Html.esc(title)).append("</title></rect>");
    if (w.open()) {
      // An open window runs off the right edge: mark it so nobody reads it as closed.
      svg.append(text(x1 - 4, y + 14, "end", "open-mark", "open \u25b8"));
    }
  }

  private static String line(double x1, double y1, double x2, double y2, String color, double width) {
    return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>",
        x1, y1, x2, y2, color, width);
  }

  private static String text(double x, double y, String anchor, String cssClass, String content) {
    return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"%s\">%s</text>",
        x, y, anchor, cssClass, Html.esc(content));
  }

  /** The top of a row's scale: the value itself up to 5, else the next of 10, 20, 50, 100, 200... */
  static long niceCeiling(long n) {
    return n <= 5 ? Math.max(1, n) : RoundNumbers.atLeast(n);
  }

  private static Instant min(Instant a, Instant b) {
    return a == null || b.isBefore(a) ? b : a;
  }

  private static Instant max(Instant a, Instant b) {
    return a == null || b.isAfter(a) ? b : a;
  }

  /** One row of bars. */
  private record Series(String name, long[] values, String color) {}

  /** Time to x pixels. */
  private record Scale(Instant from, Instant to, double left, double right) {
    double at(Instant t) {
      double span = Math.max(1e-3, seconds(from, to)); // seconds as a double: no span overflows
      double offset = seconds(from, t);
      return left + (right - left) * Math.max(0, Math.min(1, offset / span));
    }

    private static double seconds(Instant a, Instant b) {
      return (double) b.getEpochSecond() - a.getEpochSecond() + (b.getNano() - a.getNano()) / 1e9;
    }
  }
}

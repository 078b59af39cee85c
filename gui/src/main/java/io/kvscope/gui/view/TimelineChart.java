package io.kvscope.gui.view;

import io.kvscope.analysis.impact.HourCount;
import io.kvscope.analysis.impact.Window;
import io.kvscope.analysis.report.RoundNumbers;
import io.kvscope.gui.model.TimeRange;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * The timeline drawing: leaked responses per hour as bars, over-length admissions as hollow bars,
 * prefill underruns as dots, vulnerable windows shaded behind the bars and, below them, one lane
 * per node with its own windows. Dragging across it brushes a time range (snapped to whole hours);
 * a click without a drag clears it.
 */
public final class TimelineChart extends Region {

  static final Color EXPOSURE = Color.web("#c0392b");
  static final Color OVER_LENGTH = Color.web("#e67e22");
  static final Color UNDERRUN = Color.web("#6c3483");
  static final Color VULNERABLE = Color.web("#c0392b", 0.07);
  static final Color VULNERABLE_LANE = Color.web("#c0392b", 0.55);
  static final Color BRUSH = Color.web("#2e86de", 0.18);
  static final Color BRUSH_EDGE = Color.web("#2e86de");
  private static final Color GRID = Color.web("#dfe3e8");
  private static final Color INK = Color.web("#34495e");
  private static final double LEFT = 128;
  private static final double RIGHT = 18;
  private static final double TOP = 12;
  private static final double AXIS = 22;

  private final Canvas canvas = new Canvas();
  private List<HourCount> hours = List.of();
  private Map<String, List<Window>> vulnerableByNode = Map.of();
  private Instant from = Instant.EPOCH;
  private Instant to = Instant.EPOCH.plus(Duration.ofHours(1));
  private TimeRange brush;
  private Double dragStart;
  private Double dragNow;
  private Double hoverX;
  private Consumer<TimeRange> onBrush = r -> { };
  private Consumer<Instant> onHover = t -> { };

  public TimelineChart() {
    getStyleClass().add("timeline-chart");
    getChildren().add(canvas);
    setMinHeight(120);
    canvas.addEventHandler(MouseEvent.MOUSE_PRESSED, e -> {
      dragStart = e.getX();
      dragNow = e.getX();
    });
    canvas.addEventHandler(MouseEvent.MOUSE_DRAGGED, e -> {
      dragNow = e.getX();
      draw();
    });
    canvas.addEventHandler(MouseEvent.MOUSE_RELEASED, e -> finishDrag(e.getX()));
    canvas.addEventHandler(MouseEvent.MOUSE_MOVED, e -> hover(e.getX()));
    canvas.addEventHandler(MouseEvent.MOUSE_EXITED, e -> hover(null));
  }

  /** The whole time the chart spans: fixed per report, so a brush keeps its place while filters change. */
  public void setDomain(Instant start, Instant end) {
    from = start.truncatedTo(ChronoUnit.HOURS);
    Instant last = end.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1));
    to = last.isAfter(from) ? last : from.plus(Duration.ofHours(1));
    draw();
  }

  public void setHours(List<HourCount> value) {
    hours = List.copyOf(value);
    draw();
  }

  public void setVulnerableWindows(List<Window> windows) {
    Map<String, List<Window>> byNode = new TreeMap<>();
    for (Window w : windows) {
      if (w.kind() == Window.Kind.VULNERABLE) {
        byNode.computeIfAbsent(w.node() == null ? "(fleet)" : w.node(), n -> new ArrayList<>()).add(w);
      }
    }
    vulnerableByNode = byNode;
    requestLayout();
    draw();
  }

  public void setBrush(TimeRange range) {
    brush = range;
    draw();
  }

  public void setOnBrush(Consumer<TimeRange> handler) {
    onBrush = handler;
  }

  public void setOnHover(Consumer<Instant> handler) {
    onHover = handler;
  }

  /** The x (in this chart's coordinates) where {@code t} is drawn. */
  public double xFor(Instant t) {
    return scale().x(t);
  }

  /** A y inside the bar area, for pointing at the chart. */
  public double barAreaMiddleY() {
    return TOP + barsHeight() / 2;
  }

  public Instant from() {
    return from;
  }

  public Instant to() {
    return to;
  }

  private void finishDrag(double x) {
    if (dragStart == null) {
      return;
    }
    double start = dragStart;
    dragStart = null;
    dragNow = null;
    TimeScale scale = scale();
    if (Math.abs(x - start) < 4) {
      onBrush.accept(null);
    } else {
      onBrush.accept(TimeRange.hoursCovering(scale.instant(start), scale.instant(x)));
    }
    draw();
  }

  private void hover(Double x) {
    hoverX = x;
    onHover.accept(x == null || x < LEFT || x > getWidth() - RIGHT ? null
        : scale().instant(x).truncatedTo(ChronoUnit.HOURS));
    draw();
  }

  private TimeScale scale() {
    return new TimeScale(from, to, LEFT, Math.max(LEFT + 1, getWidth() - RIGHT));
  }

  private double laneHeight() {
    int lanes = vulnerableByNode.size();
    if (lanes == 0) {
      return 0;
    }
    return Math.max(7, Math.min(16, (getHeight() * 0.38) / lanes));
  }

  private double lanesHeight() {
    return vulnerableByNode.isEmpty() ? 0 : laneHeight() * vulnerableByNode.size() + 8;
  }

  private double barsHeight() {
    return Math.max(20, getHeight() - TOP - AXIS - lanesHeight());
  }

  @Override
  protected void layoutChildren() {
    canvas.setWidth(Math.max(1, getWidth()));
    canvas.setHeight(Math.max(1, getHeight()));
    draw();
  }

  private void draw() {
    GraphicsContext g = canvas.getGraphicsContext2D();
    double w = canvas.getWidth();
    double h = canvas.getHeight();
    g.clearRect(0, 0, w, h);
    if (w < LEFT + RIGHT + 10) {
      return;
    }
    TimeScale scale = scale();
    double barsTop = TOP;
    double barsBottom = TOP + barsHeight();
    double axisBottom = barsBottom + AXIS;
    g.setFont(Font.font(11));

    // Vulnerable shading behind the bars: whenever any node ran a leaking config.
    g.setFill(VULNERABLE);
    vulnerableByNode.values().forEach(list -> list.forEach(win ->
        fillSpan(g, scale, win.start(), win.end(), barsTop, barsBottom)));

    long max = 1;
    for (HourCount hc : hours) {
      max = Math.max(max, Math.max(hc.exposures(), Math.max(hc.overLengthAccepted(), hc.prefillUnderruns())));
    }
    drawYAxis(g, scale, max, barsTop, barsBottom);
    drawSeries(g, scale, max, barsTop, barsBottom);
    drawXAxis(g, scale, barsBottom, axisBottom);
    drawLanes(g, scale, axisBottom);
    drawBrush(g, scale, barsTop, h);
    if (hoverX != null && hoverX >= LEFT && hoverX <= w - RIGHT) {
      g.setStroke(Color.web("#7f8c8d", 0.7));
      g.setLineWidth(1);
      double x = Math.floor(hoverX) + 0.5;
      g.strokeLine(x, barsTop, x, barsBottom);
    }
  }

  private void drawYAxis(GraphicsContext g, TimeScale scale, long max, double top, double bottom) {
    long step = niceStep(max, 4);
    g.setTextAlign(TextAlignment.RIGHT);
    g.setTextBaseline(VPos.CENTER);
    g.setLineWidth(1);
    for (long v = 0; v <= max; v += step) {
      double y = Math.floor(bottom - (double) v / max * (bottom - top)) + 0.5;
      g.setStroke(GRID);
      g.strokeLine(scale.left(), y, scale.right(), y);
      g.setFill(INK);
      g.fillText(Long.toString(v), scale.left() - 6, y);
    }
    g.setTextAlign(TextAlignment.LEFT);
    g.setFill(INK);
    g.fillText("per hour", 8, top + 6);
  }

  private void drawSeries(GraphicsContext g, TimeScale scale, long max, double top, double bottom) {
    double hourWidth = scale.hourWidth();
    double barWidth = Math.max(1.5, hourWidth * 0.8);
    double height = bottom - top;
    // Over-length admissions as hollow bars, leaked responses filled inside them: an admission
    // that leaked shows as a red bar in an orange frame, one that did not as the frame alone.
    g.setStroke(OVER_LENGTH);
    g.setLineWidth(1.2);
    for (HourCount hc : hours) {
      if (hc.overLengthAccepted() > 0) {
        double x = scale.x(hc.hour()) + (hourWidth - barWidth) / 2;
        double bh = Math.max(1, hc.overLengthAccepted() / (double) max * height);
        g.strokeRect(x - 0.6, bottom - bh - 0.6, barWidth + 1.2, bh + 0.6);
      }
    }
    g.setFill(EXPOSURE);
    for (HourCount hc : hours) {
      if (hc.exposures() > 0) {
        double x = scale.x(hc.hour()) + (hourWidth - barWidth) / 2;
        double bh = Math.max(1, hc.exposures() / (double) max * height);
        g.fillRect(x, bottom - bh, barWidth, bh);
      }
    }
    g.setFill(UNDERRUN);
    double r = Math.max(2, Math.min(3.5, hourWidth / 2));
    for (HourCount hc : hours) {
      if (hc.prefillUnderruns() > 0) {
        double x = scale.x(hc.hour()) + hourWidth / 2;
        double y = bottom - hc.prefillUnderruns() / (double) max * height;
        g.fillOval(x - r, y - r, 2 * r, 2 * r);
      }
    }
    g.setStroke(INK);
    g.setLineWidth(1);
    g.strokeLine(scale.left(), Math.floor(bottom) + 0.5, scale.right(), Math.floor(bottom) + 0.5);
  }

  private void drawXAxis(GraphicsContext g, TimeScale scale, double top, double bottom) {
    List<Instant> ticks = scale.ticks(64);
    boolean days = ticks.size() < 2
        || Duration.between(ticks.get(0), ticks.get(1)).toHours() >= 24;
    g.setTextBaseline(VPos.TOP);
    g.setTextAlign(TextAlignment.CENTER);
    g.setLineWidth(1);
    for (Instant t : ticks) {
      double x = Math.floor(scale.x(t)) + 0.5;
      g.setStroke(INK);
      g.strokeLine(x, top, x, top + 4);
      g.setFill(INK);
      String label = days || Formats.hour(t).equals("00:00") ? Formats.day(t) : Formats.hour(t);
      g.fillText(label, x, top + 5);
    }
  }

  private void drawLanes(GraphicsContext g, TimeScale scale, double top) {
    if (vulnerableByNode.isEmpty()) {
      return;
    }
    double lane = laneHeight();
    double y = top + 6;
    g.setTextAlign(TextAlignment.RIGHT);
    g.setTextBaseline(VPos.CENTER);
    g.setFont(Font.font(Math.min(11, lane)));
    for (Map.Entry<String, List<Window>> node : vulnerableByNode.entrySet()) {
      g.setFill(Color.web("#f4f6f8"));
      g.fillRect(scale.left(), y + 1, scale.right() - scale.left(), lane - 2);
      g.setFill(VULNERABLE_LANE);
      for (Window win : node.getValue()) {
        fillSpan(g, scale, win.start(), win.end(), y + 1, y + lane - 1);
      }
      g.setFill(INK);
      g.fillText(node.getKey(), scale.left() - 6, y + lane / 2);
      y += lane;
    }
  }

  private void drawBrush(GraphicsContext g, TimeScale scale, double top, double bottom) {
    Double a = null;
    Double b = null;
    if (dragStart != null && dragNow != null && Math.abs(dragNow - dragStart) >= 4) {
      a = Math.min(dragStart, dragNow);
      b = Math.max(dragStart, dragNow);
    } else if (brush != null) {
      a = scale.x(brush.start());
      b = scale.x(brush.end());
    }
    if (a == null) {
      return;
    }
    a = Math.max(scale.left(), a);
    b = Math.min(scale.right(), b);
    g.setFill(BRUSH);
    g.fillRect(a, top, b - a, bottom - top);
    g.setStroke(BRUSH_EDGE);
    g.setLineWidth(1.5);
    g.strokeLine(a, top, a, bottom);
    g.strokeLine(b, top, b, bottom);
  }

  private static void fillSpan(GraphicsContext g, TimeScale scale, Instant start, Instant end, double top, double bottom) {
    double a = Math.max(scale.left(), scale.x(start));
    double b = Math.min(scale.right(), end == null ? scale.right() : scale.x(end));
    if (b > a) {
      g.fillRect(a, top, Math.max(1, b - a), bottom - top);
    }
  }

  /** A round step (1, 2, 5 x 10^n) giving at most about {@code lines} grid lines up to {@code max}. */
  static long niceStep(long max, int lines) {
    return RoundNumbers.atLeast((long) Math.ceil(max / (double) lines));
  }
}

package io.kvscope.gui.view;

import io.kvscope.model.finding.Finding;
import io.kvscope.analysis.impact.HourCount;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import io.kvscope.gui.model.TimeRange;
import io.kvscope.gui.model.WorkbenchModel;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.scene.shape.Circle;
import javafx.scene.shape.Rectangle;

/**
 * The timeline strip above the tabs: the {@link TimelineChart} with a legend, the brushed range and
 * a readout of the hour under the pointer. Brushing sets the model's time range, which filters
 * every other view.
 */
public final class TimelineView extends VBox {

  private final WorkbenchModel model;
  private final TimelineChart chart = new TimelineChart();
  private final Label range = new Label();
  private final Label readout = new Label();
  private final Button clear = new Button("Clear range");

  public TimelineView(WorkbenchModel model) {
    this.model = model;
    setId("timelineView");
    getStyleClass().add("timeline-view");
    chart.setId("timelineChart");
    range.setId("timelineRange");
    readout.setId("timelineReadout");
    readout.getStyleClass().add("muted");
    clear.setId("clearRange");

    Label title = new Label("Timeline (UTC)");
    title.getStyleClass().add("view-title");
    Region grow = new Region();
    HBox.setHgrow(grow, Priority.ALWAYS);
    HBox header = new HBox(14, title,
        legend(bar(TimelineChart.EXPOSURE), "Leaked responses"),
        legend(frame(), "Over-length accepted"),
        legend(dot(), "Prefill underruns"),
        legend(bar(TimelineChart.VULNERABLE_LANE), "Vulnerable window (per node)"),
        grow, readout, range, clear);
    header.setAlignment(Pos.CENTER_LEFT);
    header.setPadding(new Insets(6, 10, 2, 10));
    VBox.setVgrow(chart, Priority.ALWAYS);
    Label hint = new Label("Drag across the chart to filter every view to a time range; click to clear.");
    hint.getStyleClass().add("muted");
    hint.setPadding(new Insets(0, 10, 4, 128));
    getChildren().addAll(header, chart, hint);

    chart.setOnBrush(r -> model.updateFilter(f -> f.withRange(r)));
    chart.setOnHover(this::showHour);
    clear.setOnAction(e -> model.updateFilter(f -> f.withRange(null)));
    model.reportProperty().addListener((obs, old, report) -> showReport(report));
    model.hoursProperty().addListener((obs, old, hours) -> chart.setHours(hours));
    model.filterProperty().addListener((obs, old, f) -> showRange(f.range()));
    showReport(model.report());
    showRange(null);
  }

  public TimelineChart chart() {
    return chart;
  }

  private void showReport(Report report) {
    if (report == null) {
      return;
    }
    List<Instant> times = new ArrayList<>();
    report.timeline().forEach(h -> times.add(h.hour()));
    for (Window w : report.windows()) {
      times.add(w.start());
      if (w.end() != null) {
        times.add(w.end());
      }
    }
    for (Finding f : report.findings()) {
      if (f.time() != null) {
        times.add(f.time());
      }
    }
    Instant now = Instant.now().truncatedTo(ChronoUnit.HOURS);
    Instant first = times.stream().min(Instant::compareTo).orElse(now.minus(1, ChronoUnit.DAYS));
    Instant last = times.stream().max(Instant::compareTo).orElse(now);
    chart.setDomain(first, last);
    chart.setVulnerableWindows(report.windows());
    chart.setHours(model.hoursProperty().get());
  }

  private void showRange(TimeRange r) {
    chart.setBrush(r);
    clear.setDisable(r == null);
    range.setText(r == null ? "Range: all" : "Range: " + Formats.minute(r.start()) + " \u2013 " + Formats.minute(r.end()));
  }

  private void showHour(Instant hour) {
    if (hour == null) {
      readout.setText("");
      return;
    }
    HourCount hc = model.hoursProperty().get().stream().filter(h -> h.hour().equals(hour)).findFirst()
        .orElse(new HourCount(hour, 0, 0, 0, 0));
    readout.setText(Formats.minute(hour) + ": " + hc.exposures() + " leaked, " + hc.overLengthAccepted()
        + " over-length, " + hc.prefillUnderruns() + " underruns");
  }

  private static HBox legend(javafx.scene.Node swatch, String text) {
    HBox box = new HBox(5, swatch, new Label(text));
    box.setAlignment(Pos.CENTER_LEFT);
    box.getStyleClass().add("legend");
    return box;
  }

  private static Rectangle bar(Color color) {
    return new Rectangle(10, 10, color);
  }

  private static Rectangle frame() {
    Rectangle r = new Rectangle(9, 9, Color.TRANSPARENT);
    r.setStroke(TimelineChart.OVER_LENGTH);
    r.setStrokeWidth(1.5);
    return r;
  }

  private static Circle dot() {
    return new Circle(4, TimelineChart.UNDERRUN);
  }
}

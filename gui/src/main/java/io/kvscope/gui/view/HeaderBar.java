package io.kvscope.gui.view;

import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.gui.data.IndexData;
import io.kvscope.gui.model.WorkbenchModel;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** The report's headline numbers across the top, and which index and report are open. */
public final class HeaderBar extends HBox {

  private final WorkbenchModel model;
  private final HBox figures = new HBox(16);
  private final Label source = new Label();
  private final Label counts = new Label();

  public HeaderBar(WorkbenchModel model) {
    this.model = model;
    setId("headerBar");
    getStyleClass().add("header-bar");
    source.getStyleClass().add("muted");
    source.setId("headerSource");
    counts.getStyleClass().add("muted");
    counts.setId("headerCounts");
    Label brand = new Label("kvscope");
    brand.getStyleClass().add("brand");
    Region grow = new Region();
    HBox.setHgrow(grow, Priority.ALWAYS);
    setSpacing(18);
    setAlignment(Pos.CENTER_LEFT);
    setPadding(new Insets(6, 12, 6, 12));
    // Which index and how big, on two short lines: the path is shortened, never cut mid-word.
    VBox opened = new VBox(0, source, counts);
    opened.setAlignment(Pos.CENTER_RIGHT);
    getChildren().addAll(brand, figures, grow, opened);
    brand.setMinWidth(USE_PREF_SIZE);
    figures.setMinWidth(USE_PREF_SIZE);
    opened.setMinWidth(USE_PREF_SIZE);
    model.reportProperty().addListener((obs, old, r) -> refresh());
    model.indexProperty().addListener((obs, old, i) -> refresh());
    refresh();
  }

  private void refresh() {
    Report r = model.report();
    IndexData index = model.index();
    figures.getChildren().clear();
    if (r != null) {
      Summary s = r.summary();
      VBox leaked = figure("Leaked responses", Formats.count(s.leakedResponses()), s.leakedResponses() > 0);
      if (s.leakedResponsesOwnTenantAlsoHeld() > 0) {
        Tooltip.install(leaked, new Tooltip("At least " + Formats.count(s.leakedResponsesAtLeast()) + " for sure: in "
            + Formats.count(s.leakedResponsesOwnTenantAlsoHeld()) + " the recipient's own tenant also held everything"
            + " that leaked, so each may be its own data come back"));
      }
      figures.getChildren().addAll(
          leaked,
          figure("Source requests", Formats.range(s.sourceRequests(), s.sourceRequestsPossible()), false),
          figure("Victim tenants", Formats.range(s.victimTenants(), s.victimTenantsPossible()), false),
          figure("Recipient tenants", Formats.count(s.recipientTenants()), false),
          figure("Over-length accepted", Formats.count(s.overLengthAccepted()), false),
          figure("Underruns", Formats.count(s.prefillUnderruns()), false),
          figure("Exposure", s.firstExposure() == null ? "none"
              : Formats.minute(s.firstExposure()) + " \u2013 " + Formats.minute(s.lastExposure()), false));
    }
    source.setText(index == null ? "opening index\u2026" : shortPath(index.path()));
    source.setTooltip(index == null ? null : new javafx.scene.control.Tooltip(index.path().toString()));
    counts.setText((index == null ? "" : Formats.count(index.requestCount()) + " requests")
        + (r == null ? "" : (index == null ? "" : " \u00B7 ") + "report " + r.reportVersion()));
  }

  /** The path, or its last two parts when it is long. */
  static String shortPath(java.nio.file.Path path) {
    String full = path.toString();
    int n = path.getNameCount();
    return full.length() <= 24 || n < 2 ? full : "\u2026/" + path.subpath(n - 2, n);
  }

  private static VBox figure(String label, String value, boolean alarm) {
    Label v = new Label(value);
    v.setId("figure-" + label.toLowerCase(java.util.Locale.ROOT).replace(' ', '-'));
    v.getStyleClass().add("figure-value");
    if (alarm) {
      v.getStyleClass().add("alarm");
    }
    Label l = new Label(label);
    l.getStyleClass().add("figure-label");
    VBox box = new VBox(0, v, l);
    box.getStyleClass().add("figure");
    return box;
  }
}

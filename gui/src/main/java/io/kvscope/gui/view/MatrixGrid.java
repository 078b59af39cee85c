package io.kvscope.gui.view;

import io.kvscope.analysis.impact.MatrixCell;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import javafx.geometry.HPos;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.paint.Color;

/**
 * The source x recipient heat map: a row per tenant whose data leaked, a column per tenant who
 * received it, each cell shaded by responses (log scale, so one leak still shows) and labelled
 * with the count. Clicking a cell reports the pair.
 */
final class MatrixGrid extends GridPane {

  private static final double CELL = 46;
  private BiConsumer<String, String> onPick = (s, r) -> { };

  MatrixGrid() {
    setId("matrixGrid");
    getStyleClass().add("matrix-grid");
    setHgap(2);
    setVgap(2);
  }

  void setOnPick(BiConsumer<String, String> handler) {
    onPick = handler;
  }

  void show(List<MatrixCell> cells) {
    getChildren().clear();
    TreeSet<String> sources = new TreeSet<>();
    TreeSet<String> recipients = new TreeSet<>();
    Map<String, MatrixCell> byPair = new HashMap<>();
    long max = 1;
    for (MatrixCell c : cells) {
      sources.add(c.sourceTenant());
      recipients.add(c.recipientTenant());
      byPair.put(c.sourceTenant() + "\u0000" + c.recipientTenant(), c);
      max = Math.max(max, c.responsesPossible());
    }
    if (cells.isEmpty()) {
      add(new Label("No cross-tenant leaks in the selection."), 0, 0);
      return;
    }
    Label corner = new Label("source \u2193  recipient \u2192");
    corner.getStyleClass().add("muted");
    add(corner, 0, 0);
    int col = 1;
    for (String r : recipients) {
      Label head = new Label(r);
      head.getStyleClass().add("matrix-head");
      head.setRotate(-90);
      // In a Group the rotated bounds take part in layout, so long names stand upright, untruncated.
      javafx.scene.Group upright = new javafx.scene.Group(head);
      GridPane.setHalignment(upright, HPos.CENTER);
      GridPane.setValignment(upright, javafx.geometry.VPos.BOTTOM);
      add(upright, col++, 0);
    }
    int row = 1;
    for (String s : sources) {
      Label name = new Label(s);
      name.getStyleClass().add("matrix-head");
      GridPane.setHalignment(name, HPos.RIGHT);
      add(name, 0, row);
      col = 1;
      for (String r : recipients) {
        add(cell(byPair.get(s + "\u0000" + r), s, r, max), col++, row);
      }
      row++;
    }
  }

  private Label cell(MatrixCell c, String source, String recipient, long max) {
    Label cell = new Label(c == null ? "" : Formats.range(c.responses(), c.responsesPossible()));
    cell.getStyleClass().add("matrix-cell");
    cell.setMinSize(CELL, CELL * 0.7);
    cell.setMaxSize(CELL, CELL * 0.7);
    cell.setAlignment(Pos.CENTER);
    double strength = c == null ? 0 : Math.log1p(c.responsesPossible()) / Math.log1p(max);
    Color fill = c == null ? Color.web("#f4f6f8") : Color.web("#fdebd0").interpolate(Color.web("#a93226"), strength);
    cell.setBackground(new javafx.scene.layout.Background(new javafx.scene.layout.BackgroundFill(fill, null, null)));
    cell.setTextFill(strength > 0.55 ? Color.WHITE : Color.web("#2c3e50"));
    if (c != null) {
      cell.getStyleClass().add("matrix-hit");
      cell.setUserData(c);
      cell.setTooltip(new Tooltip(source + " \u2192 " + recipient + ": " + Formats.range(c.responses(),
          c.responsesPossible(), "response") + " (" + c.responses() + " for sure), " + Formats.count(c.tokens()) + " tokens"));
      cell.setOnMouseClicked(e -> onPick.accept(source, recipient));
    }
    return cell;
  }
}

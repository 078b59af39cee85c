package io.kvscope.gui.view;

import io.kvscope.gui.export.SelectionExport;
import io.kvscope.gui.model.FindingFilter;
import io.kvscope.gui.model.WorkbenchModel;
import io.kvscope.model.finding.Finding;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;

/**
 * "Export" with a CSV and a JSON button: the findings a view shows, with the filter and their
 * tenant counts in JSON, written on a worker thread to a file the user picks.
 */
final class FindingsExport {

  private final ViewContext ctx;
  private final Supplier<List<Finding>> shown;

  /** @param shown the findings on screen when a button is pressed */
  FindingsExport(ViewContext ctx, Supplier<List<Finding>> shown) {
    this.ctx = ctx;
    this.shown = shown;
  }

  /** The label and the two buttons, in order. */
  Node[] controls() {
    Button csv = new Button("CSV\u2026");
    csv.setId("exportFindingsCsv");
    csv.setTooltip(new Tooltip("Export the findings shown as CSV"));
    csv.setOnAction(e -> export("csv"));
    Button json = new Button("JSON\u2026");
    json.setId("exportFindingsJson");
    json.setTooltip(new Tooltip("Export the findings shown, the filter and their tenant counts as JSON"));
    json.setOnAction(e -> export("json"));
    return new Node[] {new Label("Export"), csv, json};
  }

  private void export(String format) {
    List<Finding> rows = shown.get();
    WorkbenchModel model = ctx.model();
    FindingFilter filter = model.filter();
    var impact = model.impactProperty().get();
    ctx.files().saveFile("Export " + rows.size() + " findings", "findings-selection." + format, format)
        .ifPresent(path -> ctx.work().run("Exporting findings", p -> {
          SelectionExport.write(path, format.equals("csv") ? SelectionExport.findingsCsv(rows)
              : SelectionExport.json(filter, rows, impact));
          return path;
        }, (Path written) -> ctx.status().info("Exported " + rows.size() + " findings to " + written),
            error -> ctx.status().error("Export failed: " + error.getMessage())));
  }
}

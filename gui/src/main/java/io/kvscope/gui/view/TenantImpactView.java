package io.kvscope.gui.view;

import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.gui.TenantBundleExporter;
import io.kvscope.gui.export.SelectionExport;
import io.kvscope.gui.model.Impact;
import io.kvscope.gui.model.WorkbenchModel;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToLongFunction;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * Who was hurt and who received it, for the current selection: per-tenant counts as victim and as
 * recipient, the source x recipient heat map, exports of the selection, and a tenant's
 * notification bundle through the wired {@link TenantBundleExporter}.
 */
public final class TenantImpactView extends BorderPane {

  private final ViewContext ctx;
  private final WorkbenchModel model;
  private final TableView<TenantImpact> table = new TableView<>();
  private final MatrixGrid matrix = new MatrixGrid();
  private final Label scope = new Label();
  private final Button bundle = new Button("Export tenant bundle\u2026");
  private final Button showFindings = new Button("Show tenant's findings");

  public TenantImpactView(ViewContext ctx) {
    this.ctx = ctx;
    this.model = ctx.model();
    setId("tenantImpactView");
    table.setId("tenantTable");
    scope.setId("impactScope");
    bundle.setId("exportBundle");
    showFindings.setId("showTenantFindings");
    scope.getStyleClass().add("view-title");

    Button csv = new Button("Export CSV\u2026");
    csv.setId("exportTenantsCsv");
    csv.setOnAction(e -> export("csv"));
    Button json = new Button("Export JSON\u2026");
    json.setId("exportSelectionJson");
    json.setOnAction(e -> export("json"));
    bundle.setOnAction(e -> exportBundle());
    showFindings.setOnAction(e -> {
      TenantImpact t = table.getSelectionModel().getSelectedItem();
      if (t != null) {
        model.updateFilter(f -> f.withTenant(t.tenant()));
      }
    });
    if (ctx.bundles() == null) {
      bundle.setTooltip(new Tooltip("No bundle writer is wired in this build"));
    }
    bundle.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull()
        .or(javafx.beans.binding.Bindings.createBooleanBinding(() -> ctx.bundles() == null)));
    showFindings.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull());

    Region grow = new Region();
    HBox.setHgrow(grow, Priority.ALWAYS);
    HBox bar = new HBox(8, scope, grow, showFindings, bundle, csv, json);
    bar.setAlignment(Pos.CENTER_LEFT);
    bar.setPadding(new Insets(8, 10, 6, 10));
    setTop(bar);

    buildTable();
    Label matrixTitle = new Label("Source \u00D7 recipient (responses)");
    matrixTitle.getStyleClass().add("pane-title");
    ScrollPane matrixScroll = new ScrollPane(matrix);
    matrixScroll.setId("matrixScroll");
    matrix.setPadding(new Insets(8));
    VBox.setVgrow(matrixScroll, Priority.ALWAYS);
    VBox right = new VBox(4, matrixTitle, matrixScroll);
    SplitPane split = new SplitPane(table, right);
    split.setDividerPositions(0.56);
    setCenter(split);
    BorderPane.setMargin(split, new Insets(0, 6, 6, 6));

    matrix.setOnPick((source, recipient) -> model.updateFilter(f -> f.withTenant(recipient)));
    model.impactProperty().addListener((obs, old, impact) -> show(impact));
    show(model.impactProperty().get());
  }

  private void buildTable() {
    TableColumn<TenantImpact, String> name = new TableColumn<>("Tenant");
    name.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().tenant()));
    name.setPrefWidth(150);
    // A range (2–5) where several requests held a leaked passage: sure, then with every possible source.
    TableColumn<TenantImpact, CountRange> victim = new TableColumn<>("As victim (data leaked, sure\u2013possible)");
    victim.getColumns().add(range("Requests", t -> t.asVictim().requests(), t -> t.asVictim().requestsPossible()));
    victim.getColumns().add(range("Recipients", t -> t.asVictim().recipients(), t -> t.asVictim().recipientsPossible()));
    victim.getColumns().add(range("Tokens", t -> t.asVictim().tokens(), t -> t.asVictim().tokensPossible()));
    TableColumn<TenantImpact, CountRange> recipient = new TableColumn<>("As recipient (data received)");
    recipient.getColumns().add(range("Responses", t -> t.asRecipient().responses(), t -> t.asRecipient().responses()));
    recipient.getColumns().add(range("Sources", t -> t.asRecipient().sources(), t -> t.asRecipient().sourcesPossible()));
    recipient.getColumns().add(range("Tokens", t -> t.asRecipient().tokens(), t -> t.asRecipient().tokens()));
    table.getColumns().add(name);
    table.getColumns().add(victim);
    table.getColumns().add(recipient);
    table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
    table.setPlaceholder(new Label("No cross-tenant leaks in the selection."));
  }

  /** A count known for sure and with every possible source; sorts by the sure count, then the other. */
  record CountRange(long certain, long possible) implements Comparable<CountRange> {
    @Override
    public int compareTo(CountRange o) {
      return certain != o.certain ? Long.compare(certain, o.certain) : Long.compare(possible, o.possible);
    }

    @Override
    public String toString() {
      return Formats.range(certain, possible);
    }
  }

  private static TableColumn<TenantImpact, CountRange> range(String title, ToLongFunction<TenantImpact> certain,
      ToLongFunction<TenantImpact> possible) {
    TableColumn<TenantImpact, CountRange> col = new TableColumn<>(title);
    col.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(
        new CountRange(certain.applyAsLong(c.getValue()), possible.applyAsLong(c.getValue()))));
    col.setCellFactory(c -> new TableCell<>() {
      @Override
      protected void updateItem(CountRange item, boolean empty) {
        super.updateItem(item, empty);
        setText(empty || item == null ? null : item.toString());
      }
    });
    col.setStyle("-fx-alignment: CENTER-RIGHT;");
    col.setPrefWidth(82);
    return col;
  }

  private void show(Impact impact) {
    table.getItems().setAll(impact.tenants());
    matrix.show(impact.matrix());
    scope.setText(model.filter().isNeutral() ? "Cross-tenant leaks in the whole report"
        : "Cross-tenant leaks in the selection (" + Formats.count(model.visibleFindings().size()) + " findings)");
  }

  private void export(String format) {
    Impact impact = model.impactProperty().get();
    var filter = model.filter();
    var findings = List.copyOf(model.visibleFindings());
    String name = format.equals("csv") ? "tenant-impact.csv" : "selection.json";
    ctx.files().saveFile("Export the selection", name, format).ifPresent(path ->
        ctx.work().run("Exporting", p -> {
          SelectionExport.write(path, format.equals("csv") ? SelectionExport.tenantsCsv(impact.tenants())
              : SelectionExport.json(filter, findings, impact));
          return path;
        }, (Path written) -> ctx.status().info("Exported to " + written),
            error -> ctx.status().error("Export failed: " + error.getMessage())));
  }

  private void exportBundle() {
    TenantImpact selected = table.getSelectionModel().getSelectedItem();
    TenantBundleExporter exporter = ctx.bundles();
    if (selected == null || exporter == null || model.report() == null) {
      return;
    }
    var report = model.report();
    ctx.files().directory("Folder for " + selected.tenant() + "'s bundle").ifPresent(dir -> {
      var task = ctx.work().run("Writing " + selected.tenant() + "'s bundle",
          p -> exporter.export(report, selected.tenant(), dir, p),
          (Path written) -> ctx.status().info("Wrote " + selected.tenant() + "'s bundle to " + written),
          error -> ctx.status().error("Bundle export failed: " + error.getMessage()));
      ctx.busy().watch(task);
    });
  }

  TableView<TenantImpact> table() {
    return table;
  }
}

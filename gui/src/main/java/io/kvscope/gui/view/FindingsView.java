package io.kvscope.gui.view;

import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Tenants;
import io.kvscope.analysis.report.FindingOrder;
import io.kvscope.gui.model.FindingFilter;
import io.kvscope.gui.model.FindingGroup;
import io.kvscope.gui.model.WorkbenchModel;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.transformation.SortedList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The findings table with its filters: kind, confidence, tenant (as victim or recipient), node,
 * the brushed time range, and a Lucene query run against the index and intersected with the
 * findings by request id ({@link IndexSearchBar}); the rows shown can be exported
 * ({@link FindingsExport}). A row is a request with all its findings (leak, over-length, underrun,
 * timing) or a node epoch with its config findings, most severe first; columns are as wide as what
 * they hold, and nodes are shown by the part of their name that tells them apart. The count of
 * shown rows and findings updates as filters change. Double-click or Enter opens the row's evidence.
 */
public final class FindingsView extends BorderPane {

  private final WorkbenchModel model;
  private final TableView<FindingGroup> table = new TableView<>();
  /** Nodes by the part of their name that tells them apart: among all, among prefill nodes, among decode nodes. */
  private ShortNames nodeNames = ShortNames.NONE;
  private ShortNames prefillNames = ShortNames.NONE;
  private ShortNames decodeNames = ShortNames.NONE;
  private ShortNames requestIds = ShortNames.NONE;
  private final ComboBox<Choice<FindingKind>> kind = new ComboBox<>();
  private final ComboBox<Choice<Confidence>> confidence = new ComboBox<>();
  private final ComboBox<Choice<String>> tenant = new ComboBox<>();
  private final ComboBox<Choice<String>> node = new ComboBox<>();
  private final IndexSearchBar search;
  private final Label count = new Label();
  private final Label rangeNote = new Label();
  private Runnable onOpen = () -> { };

  public FindingsView(ViewContext ctx) {
    this.model = ctx.model();
    setId("findingsView");
    table.setId("findingsTable");
    kind.setId("kindFilter");
    confidence.setId("confidenceFilter");
    tenant.setId("tenantFilter");
    node.setId("nodeFilter");
    FindingsExport export = new FindingsExport(ctx,
        () -> table.getItems().stream().flatMap(g -> g.findings().stream()).toList());
    search = new IndexSearchBar(ctx, export.controls());
    count.setId("findingsCount");
    rangeNote.setId("findingsRange");
    rangeNote.getStyleClass().add("muted");
    count.getStyleClass().add("count");

    setTop(new VBox(6, search, filterBar()));
    BorderPane.setMargin(getTop(), new Insets(8, 10, 6, 10));
    setCenter(table);
    buildTable();

    model.reportProperty().addListener((obs, old, r) -> refreshChoices());
    model.filterProperty().addListener((obs, old, f) -> showFilter(f));
    model.visibleGroups().addListener((ListChangeListener<FindingGroup>) c -> updateCount());
    model.allFindings().addListener((ListChangeListener<Finding>) c -> updateCount());
    model.selectedProperty().addListener((obs, old, f) -> showSelected(f));
    refreshChoices();
    showFilter(model.filter());
    updateCount();
  }

  /** What to do when the user opens a finding (the window switches to the evidence tab). */
  public void setOnOpen(Runnable action) {
    onOpen = action;
  }

  public TableView<FindingGroup> table() {
    return table;
  }

  /** Selects the row of {@code finding} (the evidence view may pick another finding of the same request). */
  private void showSelected(Finding finding) {
    FindingGroup current = table.getSelectionModel().getSelectedItem();
    if (finding == null || (current != null && current.contains(finding))) {
      return;
    }
    table.getItems().stream().filter(g -> g.contains(finding)).findFirst().ifPresent(g -> {
      table.getSelectionModel().select(g);
      table.scrollTo(g);
    });
  }

  private HBox filterBar() {
    kind.setOnAction(e -> model.updateFilter(f -> f.withKind(value(kind))));
    confidence.setOnAction(e -> model.updateFilter(f -> f.withConfidence(value(confidence))));
    tenant.setOnAction(e -> model.updateFilter(f -> f.withTenant(value(tenant))));
    node.setOnAction(e -> model.updateFilter(f -> f.withNode(value(node))));
    kind.setTooltip(new Tooltip("Finding kind"));
    confidence.setTooltip(new Tooltip("Confidence tier"));
    tenant.setTooltip(new Tooltip("Findings where this tenant received data (recipient) or whose data leaked (victim)"));
    node.setTooltip(new Tooltip("Prefill or decode node"));
    Button reset = new Button("Reset filters");
    reset.setId("resetFilters");
    reset.setOnAction(e -> {
      search.reset();
      model.filterProperty().set(FindingFilter.NONE);
    });
    Region grow = new Region();
    HBox.setHgrow(grow, Priority.ALWAYS);
    HBox bar = new HBox(8, kind, confidence, tenant, node, reset, rangeNote, grow, count);
    bar.setAlignment(Pos.CENTER_LEFT);
    for (var n : bar.getChildren()) {
      if (n instanceof Region r && n != grow) {
        r.setMinWidth(Region.USE_PREF_SIZE);
      }
    }
    return bar;
  }

  private void buildTable() {
    table.setPlaceholder(new Label("No findings match the filters."));
    TableColumn<FindingGroup, Instant> time = column("Time (UTC)", FindingGroup::time, (t, g) -> Formats.second(t),
        Comparator.naturalOrder());
    TableColumn<FindingGroup, Confidence> conf = column("Confidence", FindingGroup::confidence, (c, g) -> c.id(),
        Comparator.naturalOrder());
    conf.setCellFactory(col -> new TableCell<>() {
      @Override
      protected void updateItem(Confidence c, boolean empty) {
        super.updateItem(c, empty);
        getStyleClass().removeAll("conf-confirmed", "conf-probable", "conf-suspect");
        setText(empty || c == null ? null : c.id());
        if (!empty && c != null) {
          getStyleClass().add("conf-" + c.id());
        }
      }
    });
    TableColumn<FindingGroup, FindingGroup> kinds = column("Findings", g -> g, (g, row) -> kinds(g),
        Comparator.comparing(FindingGroup::lead, FindingOrder.MOST_SEVERE_FIRST));
    wrapping(kinds);
    tooltips(kinds, FindingsView::findingsTooltip);
    TableColumn<FindingGroup, String> recipient = column("Recipient", FindingsView::recipient, (t, g) -> t,
        Comparator.naturalOrder());
    wrapping(recipient);
    TableColumn<FindingGroup, String> sources = column("Data from", FindingsView::sourceTenants, (t, g) -> t,
        Comparator.naturalOrder());
    wrapping(sources);
    tooltips(sources, FindingsView::sourcesTooltip);
    TableColumn<FindingGroup, Long> tokens = column("Tokens", FindingGroup::tokens, (n, g) -> Formats.count(n),
        Comparator.naturalOrder());
    tokens.setStyle("-fx-alignment: CENTER-RIGHT;");
    TableColumn<FindingGroup, String> nodes = column("Prefill \u2192 decode", this::nodes, (t, g) -> t,
        Comparator.naturalOrder());
    wrapping(nodes);
    tooltips(nodes, FindingsView::nodesTooltip);
    TableColumn<FindingGroup, String> request = column("Request (short id)", this::request, (t, g) -> t, Comparator.naturalOrder());
    tooltips(request, g -> g.isConfig() ? null : g.requestId());
    table.getColumns().setAll(List.of(time, conf, kinds, recipient, sources, tokens, nodes, request));

    SortedList<FindingGroup> sorted = new SortedList<>(model.visibleGroups());
    sorted.comparatorProperty().bind(table.comparatorProperty());
    table.setItems(sorted);
    // No sort column at first: leaked responses first, each most severe first (as reports order findings).
    ColumnFit.stretchLast(table);

    table.getSelectionModel().selectedItemProperty().addListener((obs, old, g) -> {
      if (g != null && !g.contains(model.selectedProperty().get())) {
        model.selectedProperty().set(g.lead());
      }
    });
    table.setRowFactory(tv -> {
      TableRow<FindingGroup> row = new TableRow<>();
      row.setOnMouseClicked(e -> {
        if (e.getClickCount() == 2 && !row.isEmpty()) {
          model.selectedProperty().set(row.getItem().lead());
          onOpen.run();
        }
      });
      return row;
    });
    table.setOnKeyPressed(e -> {
      if (e.getCode() == KeyCode.ENTER && table.getSelectionModel().getSelectedItem() != null) {
        onOpen.run();
      }
    });
  }

  /**
   * Sizes every column to its header and the text of every row of the report (not only those a
   * filter shows, so columns keep their width as filters change), so nothing is cut at 1280 px.
   */
  private void fitColumns() {
    List<FindingGroup> rows = model.allGroups();
    var columns = table.getColumns();
    ColumnFit.fit(columns.get(0), rows, g -> Formats.second(g.time()), 200);
    ColumnFit.fit(columns.get(1), rows, g -> g.confidence().id(), 120, true);
    // Past these widths (a request with every kind of finding, a very long tenant or node name) a
    // cell wraps onto a second line rather than widen the table.
    ColumnFit.fit(columns.get(2), rows, FindingsView::kinds, 330);
    ColumnFit.fit(columns.get(3), rows, FindingsView::recipient, 220);
    ColumnFit.fit(columns.get(4), rows, FindingsView::sourceTenants, 240);
    ColumnFit.fit(columns.get(5), rows, g -> Formats.count(g.tokens()), 90);
    ColumnFit.fit(columns.get(6), rows, this::nodes, 320);
    ColumnFit.fit(columns.get(7), rows, this::request, 400);
    ColumnFit.restretch(table);
  }

  static String kinds(FindingGroup g) {
    return g.kinds().stream().map(Formats::kind).collect(Collectors.joining(", "));
  }

  private static String findingsTooltip(FindingGroup g) {
    return g.findings().stream().map(f -> {
      Object reason = f.evidence() instanceof Evidence.OfLeak leak ? leak.confidenceReason() : null;
      return f.kind().id() + " \u00B7 " + f.confidence().id() + (reason == null ? "" : ": " + reason);
    }).collect(Collectors.joining("\n"));
  }

  private static String recipient(FindingGroup g) {
    return g.isConfig() ? null : Tenants.nameOf(g.tenant());
  }

  /** The tenant that gave the most tokens, and how many others ("meridian-retail +2"). */
  static String sourceTenants(FindingGroup g) {
    List<String> tenants = sourcesByTokens(g).stream().map(s -> Tenants.nameOf(s.tenant())).distinct().toList();
    if (tenants.isEmpty()) {
      return null;
    }
    return tenants.get(0) + (tenants.size() > 1 ? " +" + (tenants.size() - 1) : "");
  }

  private static List<Source> sourcesByTokens(FindingGroup g) {
    return g.sources().stream().sorted(Comparator.comparingLong(Source::matchedTokens).reversed()).toList();
  }

  private static String sourcesTooltip(FindingGroup g) {
    List<Source> sources = sourcesByTokens(g);
    if (sources.isEmpty()) {
      return null;
    }
    return sources.stream().map(s -> Tenants.nameOf(s.tenant()) + " \u00B7 " + s.requestId() + " \u00B7 "
        + Formats.count(s.matchedTokens()) + " tokens").collect(Collectors.joining("\n"));
  }

  /**
   * "a0 \u2192 b1" for a request (its prefill and decode node, each by the part that tells it from
   * the others of its role), "prefill-a0" for a config epoch's node; full names in the tooltip.
   */
  private String nodes(FindingGroup g) {
    if (g.isConfig()) {
      return nodeNames.of(g.node());
    }
    String prefill = g.node() == null ? "?" : prefillNames.of(g.node());
    return g.decodeNode() == null || g.decodeNode().equals(g.node()) ? prefill
        : prefill + " \u2192 " + decodeNames.of(g.decodeNode());
  }

  private static String nodesTooltip(FindingGroup g) {
    if (g.isConfig()) {
      return "node " + g.node();
    }
    return "prefill " + (g.node() == null ? "unknown" : g.node()) + "\ndecode "
        + (g.decodeNode() == null ? "unknown" : g.decodeNode());
  }

  /**
   * The request's short id: without the prefix every id shares ({@code chatcmpl-}), as many leading
   * characters as tell it from the others (at least 12); the tooltip and the evidence have it whole.
   */
  private String request(FindingGroup g) {
    return g.isConfig() ? "config of " + g.node() : requestIds.of(g.requestId());
  }

  /** A column whose cells show {@code text} of the row's value; sorted by {@code order}, empty values last. */
  private static <T> TableColumn<FindingGroup, T> column(String title, Function<FindingGroup, T> value,
      BiFunction<T, FindingGroup, String> text, Comparator<? super T> order) {
    TableColumn<FindingGroup, T> col = new TableColumn<>(title);
    col.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(value.apply(cell.getValue())));
    col.setComparator(Comparator.nullsLast(order));
    col.setCellFactory(c -> new TableCell<>() {
      @Override
      protected void updateItem(T item, boolean empty) {
        super.updateItem(item, empty);
        FindingGroup g = Cells.rowValue(this, empty);
        setText(empty || item == null || g == null ? null : text.apply(item, g));
      }
    });
    return col;
  }

  /** Makes {@code column}'s cells wrap their text onto more lines instead of cutting it. */
  private static <T> void wrapping(TableColumn<FindingGroup, T> column) {
    var cells = column.getCellFactory();
    column.setCellFactory(c -> {
      TableCell<FindingGroup, T> cell = cells.call(c);
      javafx.scene.text.Text text = new javafx.scene.text.Text();
      text.getStyleClass().add("cell-text");
      text.wrappingWidthProperty().bind(column.widthProperty().subtract(10));
      text.textProperty().bind(cell.textProperty());
      cell.setContentDisplay(javafx.scene.control.ContentDisplay.GRAPHIC_ONLY);
      cell.setAlignment(Pos.CENTER_LEFT);
      cell.graphicProperty().bind(javafx.beans.binding.Bindings.when(cell.emptyProperty()).then((javafx.scene.Node) null)
          .otherwise(text));
      return cell;
    });
  }

  /** Gives {@code column}'s cells a tooltip from their row (null: none). */
  private static <T> void tooltips(TableColumn<FindingGroup, T> column, Function<FindingGroup, String> tip) {
    var cells = column.getCellFactory();
    column.setCellFactory(c -> {
      TableCell<FindingGroup, T> cell = cells.call(c);
      cell.itemProperty().addListener((obs, old, now) -> {
        FindingGroup g = Cells.rowValue(cell, cell.isEmpty());
        String text = g == null ? null : tip.apply(g);
        cell.setTooltip(text == null ? null : new Tooltip(text));
      });
      return cell;
    });
  }

  private void refreshChoices() {
    Set<FindingKind> kinds = new LinkedHashSet<>();
    Arrays.stream(FindingKind.values())
        .filter(k -> model.allFindings().stream().anyMatch(f -> f.kind() == k))
        .forEach(kinds::add);
    kind.setItems(FXCollections.observableArrayList(Choice.list("All kinds", kinds, FindingKind::id)));
    confidence.setItems(FXCollections.observableArrayList(
        Choice.list("Any confidence", Arrays.asList(Confidence.values()), Confidence::id)));
    tenant.setItems(FXCollections.observableArrayList(Choice.list("All tenants", model.tenants(), t -> t)));
    node.setItems(FXCollections.observableArrayList(Choice.list("All nodes", model.nodes(), n -> n)));
    List<Finding> requests = model.allFindings().stream().filter(f -> f.requestId() != null).toList();
    nodeNames = ShortNames.of(model.nodes());
    prefillNames = ShortNames.of(requests.stream().map(Finding::node).toList());
    decodeNames = ShortNames.of(requests.stream().map(Finding::decodeNode).toList());
    requestIds = ShortNames.ofIds(requests.stream().map(Finding::requestId).toList(), 12);
    fitColumns();
    showFilter(model.filter());
  }

  private void showFilter(FindingFilter f) {
    select(kind, f.kind());
    select(confidence, f.confidence());
    select(tenant, f.tenant());
    select(node, f.node());
    rangeNote.setText(f.range() == null ? "" : "and the timeline's range");
    search.filterChanged(f);
    updateCount();
  }

  private static <T> void select(ComboBox<Choice<T>> box, T value) {
    for (Choice<T> c : box.getItems()) {
      if (Objects.equals(c.value(), value)) {
        if (box.getValue() != c) {
          box.setValue(c);
        }
        return;
      }
    }
    if (!box.getItems().isEmpty()) {
      box.setValue(box.getItems().get(0));
    }
  }

  private static <T> T value(ComboBox<Choice<T>> box) {
    return box.getValue() == null ? null : box.getValue().value();
  }

  private void updateCount() {
    int rows = model.visibleGroups().size();
    count.setText(Formats.count(rows) + (rows == 1 ? " row" : " rows") + " \u00B7 "
        + Formats.count(model.visibleFindings().size()) + " of " + Formats.count(model.allFindings().size())
        + " findings");
  }
}

package io.kvscope.gui.view;

import io.kvscope.analysis.finding.Confidence;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.analysis.finding.Source;
import io.kvscope.gui.data.IndexData;
import io.kvscope.gui.data.SearchHits;
import io.kvscope.gui.export.SelectionExport;
import io.kvscope.gui.model.FindingFilter;
import io.kvscope.gui.model.WorkbenchModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
import javafx.concurrent.Task;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
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
 * findings by request id. The count of shown findings updates as filters change. Double-click or
 * Enter opens a finding's evidence.
 */
public final class FindingsView extends BorderPane {

  private final ViewContext ctx;
  private final WorkbenchModel model;
  private final TableView<Finding> table = new TableView<>();
  private final ComboBox<Choice<FindingKind>> kind = new ComboBox<>();
  private final ComboBox<Choice<Confidence>> confidence = new ComboBox<>();
  private final ComboBox<Choice<String>> tenant = new ComboBox<>();
  private final ComboBox<Choice<String>> node = new ComboBox<>();
  private final TextField query = new TextField();
  private final Label searchStatus = new Label();
  private final ProgressIndicator searching = new ProgressIndicator();
  private final Label count = new Label();
  private final Label rangeNote = new Label();
  private Runnable onOpen = () -> { };
  private Task<SearchHits> pendingSearch;

  public FindingsView(ViewContext ctx) {
    this.ctx = ctx;
    this.model = ctx.model();
    setId("findingsView");
    table.setId("findingsTable");
    kind.setId("kindFilter");
    confidence.setId("confidenceFilter");
    tenant.setId("tenantFilter");
    node.setId("nodeFilter");
    query.setId("searchQuery");
    searchStatus.setId("searchStatus");
    count.setId("findingsCount");
    rangeNote.setId("findingsRange");
    searchStatus.getStyleClass().add("muted");
    rangeNote.getStyleClass().add("muted");
    count.getStyleClass().add("count");

    setTop(new VBox(6, searchBar(), filterBar()));
    BorderPane.setMargin(getTop(), new Insets(8, 10, 6, 10));
    setCenter(table);
    buildTable();

    model.reportProperty().addListener((obs, old, r) -> refreshChoices());
    model.filterProperty().addListener((obs, old, f) -> showFilter(f));
    model.visibleFindings().addListener((ListChangeListener<Finding>) c -> updateCount());
    model.allFindings().addListener((ListChangeListener<Finding>) c -> updateCount());
    model.selectedProperty().addListener((obs, old, f) -> {
      if (f != null && table.getSelectionModel().getSelectedItem() != f) {
        table.getSelectionModel().select(f);
        table.scrollTo(f);
      }
    });
    refreshChoices();
    showFilter(model.filter());
    updateCount();
  }

  /** What to do when the user opens a finding (the window switches to the evidence tab). */
  public void setOnOpen(Runnable action) {
    onOpen = action;
  }

  public TableView<Finding> table() {
    return table;
  }

  private HBox searchBar() {
    query.setPromptText("Search the index (Lucene syntax), e.g. response_text:\"account number\" AND prompt_tokens:[681280 TO *]");
    HBox.setHgrow(query, Priority.ALWAYS);
    query.setOnAction(e -> runSearch());
    Button search = new Button("Search");
    search.setId("searchButton");
    search.setOnAction(e -> runSearch());
    Button clearSearch = new Button("Clear");
    clearSearch.setId("clearSearch");
    clearSearch.setOnAction(e -> {
      query.clear();
      cancelSearch();
      model.updateFilter(f -> f.withSearch(null, null));
      searchStatus.setText("");
    });
    searching.setPrefSize(18, 18);
    searching.setVisible(false);
    search.disableProperty().bind(model.indexProperty().isNull());
    query.disableProperty().bind(model.indexProperty().isNull());
    HBox bar = new HBox(8, new Label("Search"), query, search, clearSearch, searching, searchStatus);
    bar.setAlignment(Pos.CENTER_LEFT);
    return bar;
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
      query.clear();
      searchStatus.setText("");
      cancelSearch();
      model.filterProperty().set(FindingFilter.NONE);
    });
    Button csv = new Button("CSV\u2026");
    csv.setId("exportFindingsCsv");
    csv.setTooltip(new Tooltip("Export the findings shown as CSV"));
    csv.setOnAction(e -> export("csv"));
    Button json = new Button("JSON\u2026");
    json.setId("exportFindingsJson");
    json.setTooltip(new Tooltip("Export the findings shown, the filter and their tenant counts as JSON"));
    json.setOnAction(e -> export("json"));
    Region grow = new Region();
    HBox.setHgrow(grow, Priority.ALWAYS);
    Label export = new Label("Export");
    HBox bar = new HBox(8, kind, confidence, tenant, node, reset, rangeNote, grow, count, export, csv, json);
    bar.setAlignment(Pos.CENTER_LEFT);
    kind.setPrefWidth(200);
    confidence.setPrefWidth(150);
    tenant.setPrefWidth(150);
    node.setPrefWidth(130);
    for (var n : bar.getChildren()) {
      if (n instanceof Region r && n != grow && n != rangeNote) {
        r.setMinWidth(Region.USE_PREF_SIZE);
      }
    }
    return bar;
  }

  private void buildTable() {
    table.setPlaceholder(new Label("No findings match the filters."));
    table.getColumns().add(column("Time", 150, Finding::time, (t, f) -> Formats.second(t)));
    table.getColumns().add(column("Kind", 170, Finding::kind, (k, f) -> k.id()));
    TableColumn<Finding, Confidence> conf = column("Confidence", 90, Finding::confidence, (c, f) -> c.id());
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
    table.getColumns().add(conf);
    table.getColumns().add(column("Recipient tenant", 130, Finding::tenant, (t, f) -> t));
    table.getColumns().add(column("Source tenants", 150, FindingsView::sourceTenants, (t, f) -> t));
    table.getColumns().add(column("Node", 100, Finding::node, (t, f) -> t));
    table.getColumns().add(column("Decode node", 100, Finding::decodeNode, (t, f) -> t));
    TableColumn<Finding, Long> tokens = column("Matched tokens", 110, Finding::matchedTokens,
        (n, f) -> f.sources().isEmpty() ? "" : Formats.count(n));
    tokens.setStyle("-fx-alignment: CENTER-RIGHT;");
    table.getColumns().add(tokens);
    table.getColumns().add(column("Request", 220, f -> f.requestId() != null ? f.requestId() : f.node(), (t, f) -> t));

    SortedList<Finding> sorted = new SortedList<>(model.visibleFindings());
    sorted.comparatorProperty().bind(table.comparatorProperty());
    table.setItems(sorted);
    table.getSortOrder().add(table.getColumns().get(0));
    table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);

    table.getSelectionModel().selectedItemProperty().addListener((obs, old, f) -> {
      if (f != null) {
        model.selectedProperty().set(f);
      }
    });
    table.setRowFactory(tv -> {
      TableRow<Finding> row = new TableRow<>();
      row.setOnMouseClicked(e -> {
        if (e.getClickCount() == 2 && !row.isEmpty()) {
          model.selectedProperty().set(row.getItem());
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

  private static String sourceTenants(Finding f) {
    return f.sources().stream().map(Source::tenant).filter(Objects::nonNull).distinct().sorted()
        .collect(Collectors.joining(", "));
  }

  private static <T extends Comparable<? super T>> TableColumn<Finding, T> column(String title, double width,
      Function<Finding, T> value, BiFunction<T, Finding, String> text) {
    TableColumn<Finding, T> col = new TableColumn<>(title);
    col.setPrefWidth(width);
    col.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(value.apply(cell.getValue())));
    col.setComparator((a, b) -> a == null ? (b == null ? 0 : 1) : b == null ? -1 : a.compareTo(b));
    col.setCellFactory(c -> new TableCell<>() {
      @Override
      protected void updateItem(T item, boolean empty) {
        super.updateItem(item, empty);
        Finding f = Cells.rowValue(this, empty);
        setText(empty || item == null || f == null ? null : text.apply(item, f));
      }
    });
    return col;
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
    showFilter(model.filter());
  }

  private void showFilter(FindingFilter f) {
    select(kind, f.kind());
    select(confidence, f.confidence());
    select(tenant, f.tenant());
    select(node, f.node());
    rangeNote.setText(f.range() == null ? "" : "time range from the timeline");
    if (f.searchQuery() == null && !query.getText().isBlank() && pendingSearch == null) {
      searchStatus.setText("");
    }
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
    count.setText(Formats.count(model.visibleFindings().size()) + " of " + Formats.count(model.allFindings().size())
        + " findings");
  }

  private void runSearch() {
    String text = query.getText().strip();
    IndexData index = model.index();
    if (index == null) {
      return;
    }
    cancelSearch();
    if (text.isEmpty()) {
      model.updateFilter(f -> f.withSearch(null, null));
      searchStatus.setText("");
      return;
    }
    List<String> ids = new ArrayList<>();
    for (Finding f : model.allFindings()) {
      if (f.requestId() != null) {
        ids.add(f.requestId());
      }
      if (f.engineRid() != null) {
        ids.add(f.engineRid());
      }
    }
    searching.setVisible(true);
    searchStatus.getStyleClass().remove("error");
    searchStatus.setText("Searching\u2026");
    Task<SearchHits> task = ctx.work().run("Searching the index", p -> index.matching(text, ids), hits -> {
      pendingSearch = null;
      searching.setVisible(false);
      model.updateFilter(f -> f.withSearch(text, hits.ids()));
      searchStatus.setText("Query matched " + Formats.count(hits.totalMatches()) + " requests in the index");
    }, error -> {
      pendingSearch = null;
      searching.setVisible(false);
      if (!searchStatus.getStyleClass().contains("error")) {
        searchStatus.getStyleClass().add("error");
      }
      String reason = error instanceof org.apache.lucene.queryparser.classic.ParseException
          ? "Query not understood: " : "Search failed: ";
      searchStatus.setText(reason + firstLine(error.getMessage()));
    });
    pendingSearch = task;
  }

  private void cancelSearch() {
    if (pendingSearch != null) {
      pendingSearch.cancel(true);
      pendingSearch = null;
      searching.setVisible(false);
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unknown error";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  private void export(String format) {
    List<Finding> rows = List.copyOf(table.getItems());
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

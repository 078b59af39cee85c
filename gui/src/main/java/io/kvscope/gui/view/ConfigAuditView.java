package io.kvscope.gui.view;

import io.kvscope.analysis.NodeEpoch;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import io.kvscope.gui.data.IndexData;
import io.kvscope.gui.model.WorkbenchModel;
import io.kvscope.ingest.record.ConfigEpoch;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * Every node's config epochs (one row per startup or config change, on the gateway's clock, as the
 * config audit judged them) beside what the report's config findings say of each: a cell is red
 * where a finding names it (pool below context, an engine older than the fixed release, a
 * safeguard off), amber where a suspect finding says the audit could not tell or the logs did not
 * show the value. No check is made here: an epoch without findings passed the audit. Below, the
 * vulnerable windows the analysis derived.
 */
public final class ConfigAuditView extends BorderPane {

  /** The config findings of one epoch, and the safeguards the audit found off. */
  record EpochRow(NodeEpoch epoch, List<Finding> findings) {

    Finding finding(FindingKind kind) {
      return findings.stream().filter(f -> f.kind() == kind).findFirst().orElse(null);
    }

    /** What the audit said of the engine version: any config finding not about the pool or a safeguard. */
    Finding version() {
      return findings.stream().filter(f -> f.kind() != FindingKind.CONFIG_POOL_BELOW_CONTEXT
          && f.kind() != FindingKind.CONFIG_MISSING_SAFEGUARD).findFirst().orElse(null);
    }

    /** The missing-safeguard finding when it names {@code safeguard} ({@code kv_canary}, ...). */
    Finding missing(String safeguard) {
      Finding f = finding(FindingKind.CONFIG_MISSING_SAFEGUARD);
      return f != null && f.evidence() instanceof Evidence.Config e && e.missing().contains(safeguard) ? f : null;
    }
  }

  private final WorkbenchModel model;
  private final TableView<EpochRow> epochs = new TableView<>();
  private final TableView<Window> windows = new TableView<>();
  private final Label policy = new Label();
  private final Label summary = new Label();

  public ConfigAuditView(ViewContext ctx) {
    this.model = ctx.model();
    setId("configAuditView");
    epochs.setId("epochTable");
    windows.setId("windowTable");
    summary.setId("auditSummary");
    policy.setId("auditPolicy");

    Label title = new Label("Node config epochs and the report's config findings");
    Tooltip.install(title, new Tooltip("Canary: KV canary \u00B7 Checksum: KV checksum \u00B7 Deferred: deferred KV release"));
    title.getStyleClass().add("view-title");
    policy.getStyleClass().add("muted");
    HBox bar = new HBox(12, title, policy);
    bar.setAlignment(Pos.CENTER_LEFT);
    summary.setWrapText(true);
    VBox top = new VBox(4, bar, summary);
    top.setPadding(new Insets(8, 10, 6, 10));
    setTop(top);

    buildEpochTable();
    buildWindowTable();
    Label windowsTitle = new Label("Vulnerable windows");
    windowsTitle.getStyleClass().add("pane-title");
    VBox lower = new VBox(4, windowsTitle, windows);
    VBox.setVgrow(windows, Priority.ALWAYS);
    SplitPane split = new SplitPane(epochs, lower);
    split.setOrientation(Orientation.VERTICAL);
    split.setDividerPositions(0.66);
    setCenter(split);
    BorderPane.setMargin(split, new Insets(0, 6, 6, 6));

    model.indexProperty().addListener((obs, old, index) -> refresh());
    model.reportProperty().addListener((obs, old, report) -> refresh());
    refresh();
  }

  private void buildEpochTable() {
    epochs.getColumns().add(text("Node", r -> r.epoch().epoch().node(), null));
    epochs.getColumns().add(text("Role", r -> r.epoch().epoch().role().name().toLowerCase(Locale.ROOT), null));
    epochs.getColumns().add(text("From (UTC)", r -> Formats.second(r.epoch().start()), null));
    epochs.getColumns().add(text("Until", r -> r.epoch().end() == null ? "last seen" : Formats.second(r.epoch().end()),
        null));
    epochs.getColumns().add(text("KV pool", r -> Formats.count(r.epoch().epoch().poolTokens()),
        r -> r.finding(FindingKind.CONFIG_POOL_BELOW_CONTEXT)));
    epochs.getColumns().add(text("Context", r -> Formats.count(r.epoch().epoch().contextLength()),
        r -> r.finding(FindingKind.CONFIG_POOL_BELOW_CONTEXT)));
    epochs.getColumns().add(text("Page", r -> r.epoch().epoch().pageSize() == null ? "-"
        : r.epoch().epoch().pageSize().toString(), null));
    epochs.getColumns().add(text("Version", r -> version(r.epoch().epoch()), EpochRow::version));
    // The kind of record only; its file, image and any disagreement are in the audit's finding.
    epochs.getColumns().add(text("Version from", r -> r.epoch().epoch().versionSource() == null ? "-"
        : r.epoch().epoch().versionSource().origin().description(), null));
    epochs.getColumns().add(text("Canary", r -> Formats.flag(r.epoch().epoch().kvCanary()), r -> r.missing("kv_canary")));
    epochs.getColumns().add(text("Checksum", r -> Formats.flag(r.epoch().epoch().kvChecksum()),
        r -> r.missing("kv_checksum")));
    epochs.getColumns().add(text("Deferred", r -> Formats.flag(r.epoch().epoch().deferredRelease()),
        r -> r.missing("deferred_release")));
    TableColumn<EpochRow, String> evidence = text("Read from", r -> where(r.epoch().epoch()), null);
    epochs.getColumns().add(evidence);
    ColumnFit.stretchLast(epochs);
    epochs.setPlaceholder(new Label("The index has no config epochs (no engine startup lines were ingested)."));
  }

  private static String version(ConfigEpoch e) {
    return e.engineVersion() == null ? "unknown" : e.engineVersion();
  }

  /** The log file (by name: the folder is the incident's) and line an epoch was read from. */
  private static String where(ConfigEpoch e) {
    if (e.sourceFile() == null) {
      return e.source();
    }
    String file = e.sourceFile().substring(Math.max(e.sourceFile().lastIndexOf('/'), e.sourceFile().lastIndexOf('\\')) + 1);
    return file + ":" + e.sourceLine();
  }

  /**
   * A text column. With {@code judged}, a cell is marked failed when the report has a finding about
   * it (the finding is its tooltip), and unknown when its value is missing from the logs.
   */
  private static TableColumn<EpochRow, String> text(String title, Function<EpochRow, String> value,
      Function<EpochRow, Finding> judged) {
    TableColumn<EpochRow, String> col = new TableColumn<>(title);
    col.setSortable(false);
    col.setUserData(value);
    col.setCellValueFactory(c -> new ReadOnlyStringWrapper(value.apply(c.getValue())));
    col.setCellFactory(c -> new TableCell<>() {
      @Override
      protected void updateItem(String item, boolean empty) {
        super.updateItem(item, empty);
        getStyleClass().removeAll("audit-failed", "audit-unknown");
        setText(empty ? null : item);
        EpochRow row = Cells.rowValue(this, empty);
        setTooltip(null);
        if (row == null || judged == null) {
          return;
        }
        Finding finding = judged.apply(row);
        if (finding != null) {
          // A suspect finding says the audit could not tell (e.g. no record of the engine version).
          getStyleClass().add(finding.confidence() == Confidence.SUSPECT ? "audit-unknown" : "audit-failed");
          setTooltip(new Tooltip(describe(finding)));
        } else if ("unknown".equals(item) || "-".equals(item)) {
          getStyleClass().add("audit-unknown");
          setTooltip(new Tooltip("Not shown in the logs, so it cannot be verified"));
        }
      }
    });
    return col;
  }

  /** "config_pool_below_context (confirmed)" and the finding's expected/observed evidence. */
  static String describe(Finding f) {
    StringBuilder out = new StringBuilder(f.kind().id() + " (" + f.confidence().id() + ")");
    if (f.evidence() instanceof Evidence.Config e) {
      Map<String, Object> said = new LinkedHashMap<>();
      said.put("observed", e.observed());
      said.put("expected", e.expected());
      said.put("missing", e.missing().isEmpty() ? null : String.join(", ", e.missing()));
      said.put("exploitable", e.exploitable());
      said.put("why", e.why());
      said.put("provide", e.provide());
      said.forEach((key, value) -> out.append(value == null ? "" : "\n" + key + ": " + value));
    }
    return out.toString();
  }

  private void buildWindowTable() {
    windows.getColumns().add(windowColumn("Node", w -> w.node() != null ? w.node() : w.deployment()));
    windows.getColumns().add(windowColumn("Start (UTC)", w -> Formats.second(w.start())));
    windows.getColumns().add(windowColumn("End", w -> w.open() ? "still open" : Formats.second(w.end())));
    windows.getColumns().add(windowColumn("Requests", w -> Formats.count(w.count())));
    windows.getColumns().add(windowColumn("Reason", w -> w.reason() == null ? "" : w.reason()));
    ColumnFit.stretchLast(windows);
    windows.setPlaceholder(new Label("No vulnerable windows in the report."));
  }

  private static TableColumn<Window, String> windowColumn(String title, Function<Window, String> value) {
    TableColumn<Window, String> col = new TableColumn<>(title);
    col.setUserData(value);
    col.setCellValueFactory(c -> new ReadOnlyStringWrapper(value.apply(c.getValue())));
    return col;
  }

  private void refresh() {
    IndexData index = model.index();
    Report report = model.report();
    List<Finding> config = report == null ? List.of()
        : report.findings().stream().filter(f -> f.kind().isConfig()).toList();
    List<EpochRow> rows = new ArrayList<>();
    Set<Finding> placed = new HashSet<>();
    if (index != null) {
      for (NodeEpoch epoch : index.nodeEpochs()) {
        List<Finding> about = config.stream().filter(epoch::isAbout).toList();
        placed.addAll(about);
        rows.add(new EpochRow(epoch, about));
      }
    }
    epochs.getItems().setAll(rows);
    fit(epochs, rows);
    List<Window> vulnerable = report == null ? List.of()
        : report.windows().stream().filter(w -> w.kind() == Window.Kind.VULNERABLE).toList();
    windows.getItems().setAll(vulnerable);
    fit(windows, vulnerable);
    Object fixed = report == null ? null : report.parameters().get("config-audit.fixed_version");
    policy.setText((fixed == null ? "" : "fixed release " + fixed + " \u00B7 ")
        + "red: a config finding of the report \u00B7 amber: unknown (not in the logs)");
    int unplaced = (int) config.stream().filter(f -> !placed.contains(f)).count();
    summary.setText(index == null ? "" : summarize(rows)
        + (unplaced == 0 ? "" : "  \u00B7  " + unplaced + " config findings are about epochs this index does not hold"));
  }

  /** Every column as wide as its header and cells (the last also takes the spare room). */
  @SuppressWarnings("unchecked")
  private static <S> void fit(TableView<S> table, List<S> rows) {
    var columns = table.getColumns();
    for (int i = 0; i < columns.size(); i++) {
      ColumnFit.fit(columns.get(i), rows, (Function<S, String>) columns.get(i).getUserData(), 400);
    }
    ColumnFit.restretch(table);
  }

  /** "4/8 nodes: KV pool below context length  ·  8/8 nodes: engine older than the fixed release ..." */
  static String summarize(List<EpochRow> rows) {
    Set<String> nodes = new TreeSet<>();
    Map<String, Set<String>> failing = new LinkedHashMap<>();
    for (EpochRow row : rows) {
      String node = row.epoch().epoch().node();
      nodes.add(node);
      for (Finding f : row.findings()) {
        if (f.kind() == FindingKind.CONFIG_MISSING_SAFEGUARD && f.evidence() instanceof Evidence.Config e) {
          e.missing().forEach(item -> failing.computeIfAbsent(problem(item), k -> new TreeSet<>()).add(node));
        } else {
          failing.computeIfAbsent(problem(f.kind()), k -> new TreeSet<>()).add(node);
        }
      }
    }
    if (nodes.isEmpty()) {
      return "no config epochs";
    }
    if (failing.isEmpty()) {
      return nodes.size() + " nodes: no config findings";
    }
    List<String> parts = new ArrayList<>();
    failing.forEach((problem, failed) -> parts.add(failed.size() + "/" + nodes.size() + " nodes: " + problem));
    return String.join("  \u00B7  ", parts);
  }

  private static String problem(FindingKind kind) {
    return switch (kind) {
      case CONFIG_POOL_BELOW_CONTEXT -> "KV pool below context length";
      case CONFIG_UNPATCHED_ENGINE -> "engine older than the fixed release";
      default -> Formats.kind(kind);
    };
  }

  private static String problem(String safeguard) {
    return switch (safeguard) {
      case "kv_canary" -> "KV canary off";
      case "kv_checksum" -> "KV checksum off";
      case "deferred_release" -> "deferred release off";
      default -> safeguard.replace('_', ' ') + " off";
    };
  }

  TableView<EpochRow> epochTable() {
    return epochs;
  }
}

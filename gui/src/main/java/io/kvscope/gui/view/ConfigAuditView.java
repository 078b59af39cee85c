package io.kvscope.gui.view;

import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import io.kvscope.gui.audit.Check;
import io.kvscope.gui.audit.EpochAudit;
import io.kvscope.gui.audit.Verdict;
import io.kvscope.gui.data.IndexData;
import io.kvscope.gui.model.WorkbenchModel;
import io.kvscope.ingest.record.ConfigEpoch;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.geometry.Orientation;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * Every node's config epochs (one row per startup or config change) against the operator
 * checklist: KV pool vs context length, engine version vs the fixed release, canary, checksum and
 * deferred release. Failed checks are marked red, facts the logs did not show amber. Below, the
 * vulnerable windows the analysis derived.
 */
public final class ConfigAuditView extends BorderPane {

  private final WorkbenchModel model;
  private final String fixedVersion;
  private final TableView<EpochAudit> epochs = new TableView<>();
  private final TableView<Window> windows = new TableView<>();
  private final Label summary = new Label();

  public ConfigAuditView(ViewContext ctx) {
    this.model = ctx.model();
    this.fixedVersion = ctx.fixedVersion();
    setId("configAuditView");
    epochs.setId("epochTable");
    windows.setId("windowTable");
    summary.setId("auditSummary");

    Label title = new Label("Node config epochs against the operator checklist");
    title.getStyleClass().add("view-title");
    Label policy = new Label("fixed release " + fixedVersion + " \u00B7 red: failed \u00B7 amber: not shown in the logs");
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
    VBox.setVgrow(windows, javafx.scene.layout.Priority.ALWAYS);
    SplitPane split = new SplitPane(epochs, lower);
    split.setOrientation(Orientation.VERTICAL);
    split.setDividerPositions(0.66);
    setCenter(split);
    BorderPane.setMargin(split, new Insets(0, 6, 6, 6));

    model.indexProperty().addListener((obs, old, index) -> showEpochs(index));
    model.reportProperty().addListener((obs, old, report) -> showWindows(report));
    showEpochs(model.index());
    showWindows(model.report());
  }

  private void buildEpochTable() {
    epochs.getColumns().add(text("Node", 110, a -> a.epoch().node(), null));
    epochs.getColumns().add(text("Role", 75, a -> a.epoch().role().name().toLowerCase(java.util.Locale.ROOT), null));
    epochs.getColumns().add(text("From", 145, a -> Formats.millis(a.epoch().start()), null));
    epochs.getColumns().add(text("Until", 145, a -> a.end() == null ? "last seen" : Formats.millis(a.end()), null));
    epochs.getColumns().add(text("KV pool", 95, a -> Formats.count(a.epoch().poolTokens()), Check.POOL_VS_CONTEXT));
    epochs.getColumns().add(text("Context", 95, a -> Formats.count(a.epoch().contextLength()), Check.POOL_VS_CONTEXT));
    epochs.getColumns().add(text("Page", 50, a -> a.epoch().pageSize() == null ? "-" : a.epoch().pageSize().toString(), null));
    epochs.getColumns().add(text("Version", 80, a -> a.epoch().versionKnown() ? a.epoch().engineVersion()
        : "unknown", Check.ENGINE_VERSION));
    epochs.getColumns().add(text("Version from", 170, a -> a.epoch().versionSource() == null ? "-"
        : a.epoch().versionSource().describe(), null));
    epochs.getColumns().add(text("KV canary", 80, a -> Formats.flag(a.epoch().kvCanary()), Check.KV_CANARY));
    epochs.getColumns().add(text("Checksum", 80, a -> Formats.flag(a.epoch().kvChecksum()), Check.KV_CHECKSUM));
    epochs.getColumns().add(text("Deferred rel.", 95, a -> Formats.flag(a.epoch().deferredRelease()),
        Check.DEFERRED_RELEASE));
    epochs.getColumns().add(text("Evidence", 200, a -> a.epoch().sourceFile() == null ? a.epoch().source()
        : a.epoch().sourceFile() + ":" + a.epoch().sourceLine(), null));
    epochs.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
    epochs.setPlaceholder(new Label("The index has no config epochs (no engine startup lines were ingested)."));
  }

  /** A text column; when {@code check} is set its cells are marked by that check's verdict. */
  private TableColumn<EpochAudit, String> text(String title, double width, Function<EpochAudit, String> value,
      Check check) {
    TableColumn<EpochAudit, String> col = new TableColumn<>(title);
    col.setPrefWidth(width);
    col.setSortable(false);
    col.setCellValueFactory(c -> new ReadOnlyStringWrapper(value.apply(c.getValue())));
    col.setCellFactory(c -> new TableCell<>() {
      @Override
      protected void updateItem(String item, boolean empty) {
        super.updateItem(item, empty);
        getStyleClass().removeAll("audit-failed", "audit-unknown");
        setTooltip(null);
        setText(empty ? null : item);
        EpochAudit row = Cells.rowValue(this, empty);
        if (row == null || check == null) {
          return;
        }
        Verdict verdict = row.verdict(check);
        if (verdict == Verdict.FAILED) {
          getStyleClass().add("audit-failed");
          setTooltip(new Tooltip(tooltip(check, row)));
        } else if (verdict == Verdict.UNKNOWN) {
          getStyleClass().add("audit-unknown");
          setTooltip(new Tooltip(check == Check.ENGINE_VERSION ? unknownVersion(row)
              : "Not shown in the logs, so it cannot be verified"));
        }
      }
    });
    return col;
  }

  private String tooltip(Check check, EpochAudit row) {
    ConfigEpoch e = row.epoch();
    return switch (check) {
      case POOL_VS_CONTEXT -> "KV pool " + Formats.count(e.poolTokens()) + " < context " + Formats.count(e.contextLength())
          + ": prompts longer than the pool are admitted";
      case ENGINE_VERSION -> "Engine " + e.engineVersion() + " is older than the fixed release " + fixedVersion;
      default -> check.problem();
    };
  }

  /** Why the version is unknown and which record would tell it. */
  static String unknownVersion(EpochAudit row) {
    ConfigEpoch e = row.epoch();
    String why = e.versionSource() != null ? e.versionSource().describe()
        : "No SGLang log line names the engine release, and no deployment record covers this epoch.";
    return why + "\nTo settle it, add a record for " + e.node() + " at this time: the pod as Kubernetes saw it"
        + " (kubectl get pod -o yaml: image tag and container start), a saved /get_server_info response, or a"
        + " deployment manifest row (node,from,to,version).";
  }

  private void buildWindowTable() {
    windows.getColumns().add(windowColumn("Node", 140, w -> w.node() != null ? w.node() : w.deployment()));
    windows.getColumns().add(windowColumn("Start", 160, w -> Formats.second(w.start())));
    windows.getColumns().add(windowColumn("End", 160, w -> w.open() ? "still open" : Formats.second(w.end())));
    windows.getColumns().add(windowColumn("Requests", 90, w -> Formats.count(w.count())));
    windows.getColumns().add(windowColumn("Engine version", 110, w -> w.engineVersion() == null ? "-" : w.engineVersion()));
    windows.getColumns().add(windowColumn("Reason", 400, w -> w.reason() == null ? "" : w.reason()));
    windows.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
    windows.setPlaceholder(new Label("No vulnerable windows in the report."));
  }

  private static TableColumn<Window, String> windowColumn(String title, double width, Function<Window, String> value) {
    TableColumn<Window, String> col = new TableColumn<>(title);
    col.setPrefWidth(width);
    col.setCellValueFactory(c -> new ReadOnlyStringWrapper(value.apply(c.getValue())));
    return col;
  }

  private void showEpochs(IndexData index) {
    if (index == null) {
      epochs.getItems().clear();
      summary.setText("");
      return;
    }
    List<EpochAudit> audits = EpochAudit.all(index.epochs().byNode(), fixedVersion);
    epochs.getItems().setAll(audits);
    summary.setText(summarize(audits));
  }

  private void showWindows(Report report) {
    List<Window> vulnerable = new ArrayList<>();
    if (report != null) {
      report.windows().stream().filter(w -> w.kind() == Window.Kind.VULNERABLE).forEach(vulnerable::add);
    }
    windows.getItems().setAll(vulnerable);
  }

  /** "2 of 4 nodes: KV pool below context length; 1 of 4 nodes: engine older than ..." */
  static String summarize(List<EpochAudit> audits) {
    Set<String> nodes = new HashSet<>();
    Map<Check, Set<String>> failing = new EnumMap<>(Check.class);
    for (EpochAudit a : audits) {
      nodes.add(a.epoch().node());
      for (Check c : a.failed()) {
        failing.computeIfAbsent(c, k -> new HashSet<>()).add(a.epoch().node());
      }
    }
    if (nodes.isEmpty()) {
      return "no config epochs";
    }
    Set<String> versionUnknown = new HashSet<>();
    for (EpochAudit a : audits) {
      if (!a.epoch().fromMetrics() && a.verdict(Check.ENGINE_VERSION) == Verdict.UNKNOWN) {
        versionUnknown.add(a.epoch().node());
      }
    }
    String unknown = versionUnknown.isEmpty() ? "" : versionUnknown.size() + "/" + nodes.size()
        + " nodes: engine version unknown (no deployment record)";
    if (failing.isEmpty()) {
      return nodes.size() + " nodes: every known check passed" + (unknown.isEmpty() ? "" : "  \u00B7  " + unknown);
    }
    List<String> parts = new ArrayList<>();
    failing.forEach((check, failed) -> parts.add(failed.size() + "/" + nodes.size() + " nodes: " + check.problem()));
    if (!unknown.isEmpty()) {
      parts.add(unknown);
    }
    return String.join("  \u00B7  ", parts);
  }

  TableView<EpochAudit> epochTable() {
    return epochs;
  }
}

package io.kvscope.gui;

import io.kvscope.model.finding.Finding;
import io.kvscope.analysis.impact.Report;
import io.kvscope.gui.data.IndexData;
import io.kvscope.gui.export.FileChoosers;
import io.kvscope.gui.model.WorkbenchModel;
import io.kvscope.gui.snapshot.ScreenshotTour;
import io.kvscope.gui.snapshot.Shot;
import io.kvscope.gui.view.ConfigAuditView;
import io.kvscope.gui.view.EvidenceView;
import io.kvscope.gui.view.FindingsView;
import io.kvscope.gui.view.HeaderBar;
import io.kvscope.gui.view.StatusLine;
import io.kvscope.gui.view.TenantImpactView;
import io.kvscope.gui.view.TimelineView;
import io.kvscope.gui.view.ViewContext;
import io.kvscope.gui.work.BackgroundWork;
import io.kvscope.gui.work.BusyOverlay;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import javafx.concurrent.Task;
import javafx.concurrent.WorkerStateEvent;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The workbench window: the header, the timeline strip, the tabs with the other views, the status
 * line, and the veil shown while the index opens and the report loads. It owns the model, the
 * worker threads and the open index, and releases them when the window closes.
 */
final class WorkbenchWindow {

  static final double WIDTH = 1280;
  static final double HEIGHT = 800;

  private final WorkbenchInput input;
  private final Function<Window, FileChoosers> fileChoosers;
  private final WorkbenchModel model = new WorkbenchModel();
  private final BackgroundWork work = new BackgroundWork();
  private final BusyOverlay busy = new BusyOverlay();
  private final StatusLine status = new StatusLine();
  private final VBox notice = new VBox(12);
  private final Label noticeText = new Label();
  private final TabPane tabs = new TabPane();
  private final CompletableFuture<List<Path>> outcome = new CompletableFuture<>();
  private Stage stage;
  private boolean released;
  private TimelineView timeline;
  private FindingsView findings;
  private EvidenceView evidence;
  private Tab findingsTab;
  private Tab evidenceTab;
  private Tab tenantsTab;
  private Tab configTab;

  WorkbenchWindow(WorkbenchInput input, Function<Window, FileChoosers> fileChoosers) {
    this.input = input;
    this.fileChoosers = fileChoosers;
  }

  /** Builds the scene on {@code stage}, shows it and starts loading. Call on the FX thread. */
  void show(Stage target) {
    this.stage = target;
    ViewContext ctx = new ViewContext(model, work, busy, fileChoosers.apply(target), status, input.bundles(),
        input.traceLinks());
    timeline = new TimelineView(model);
    findings = new FindingsView(ctx);
    evidence = new EvidenceView(ctx);
    findingsTab = tab("Findings", findings);
    evidenceTab = tab("Evidence", evidence);
    tenantsTab = tab("Tenant impact", new TenantImpactView(ctx));
    configTab = tab("Config audit", new ConfigAuditView(ctx));
    tabs.setId("viewTabs");
    tabs.getTabs().addAll(findingsTab, evidenceTab, tenantsTab, configTab);
    findings.setOnOpen(() -> tabs.getSelectionModel().select(evidenceTab));

    SplitPane split = new SplitPane(timeline, tabs);
    split.setOrientation(Orientation.VERTICAL);
    split.setDividerPositions(0.30);
    SplitPane.setResizableWithParent(timeline, false);
    BorderPane main = new BorderPane(split);
    main.setTop(new HeaderBar(model));
    main.setBottom(status);
    BorderPane.setMargin(status, new Insets(2, 10, 3, 10));

    Button retry = new Button("Try again");
    retry.setId("retryLoad");
    retry.setOnAction(e -> load());
    noticeText.setId("noticeText");
    noticeText.setWrapText(true);
    noticeText.setMaxWidth(560);
    notice.getChildren().addAll(noticeText, retry);
    notice.setAlignment(Pos.CENTER);
    notice.getStyleClass().add("notice");
    notice.setId("loadNotice");
    notice.setVisible(false);

    Scene scene = new Scene(new StackPane(main, notice, busy), WIDTH, HEIGHT);
    scene.getStylesheets().add(WorkbenchWindow.class.getResource("workbench.css").toExternalForm());
    target.setTitle("kvscope \u2014 " + input.index());
    target.setScene(scene);
    target.setOnHidden(e -> release());
    target.show();
    load();
  }

  /** Opens the index and loads the report in the background; the veil offers Cancel. */
  private void load() {
    notice.setVisible(false);
    status.info("Opening " + input.index());
    Task<Opened> task = work.run("Opening the index", this::open, this::opened, this::failed);
    task.addEventHandler(WorkerStateEvent.WORKER_STATE_CANCELLED, e -> {
      status.info("Loading cancelled.");
      showNotice("Loading was cancelled. The index and report are not open.");
      if (input.screenshotDir() != null) {
        outcome.completeExceptionally(new IOException("loading was cancelled"));
        stage.close();
      }
    });
    busy.watch(task);
  }

  private record Opened(IndexData index, Report report) {}

  private Opened open(WorkProgress progress) throws Exception {
    progress.update("Opening index " + input.index().getFileName(), -1);
    IndexData index = IndexData.open(input.index());
    try {
      progress.update("Loading the report", -1);
      Report report = input.report().load(progress);
      if (progress.isCancelled() || report == null) {
        index.close();
        return null;
      }
      return new Opened(index, report);
    } catch (Exception | Error e) {
      index.close();
      throw e;
    }
  }

  private void opened(Opened opened) {
    if (opened == null) {
      return;
    }
    if (released) {
      closeQuietly(opened.index()); // the window closed while the index was opening
      return;
    }
    IndexData previous = model.index();
    model.indexProperty().set(opened.index());
    model.setReport(opened.report());
    closeQuietly(previous);
    status.info("Opened " + input.index() + ": " + opened.report().findings().size() + " findings.");
    if (input.screenshotDir() != null) {
      takeScreenshots(input.screenshotDir());
    }
  }

  private void failed(Throwable error) {
    String message = error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
    status.error("Could not open: " + message);
    showNotice("Could not open the index or report:\n" + message);
    if (input.screenshotDir() != null) {
      outcome.completeExceptionally(error);
      stage.close();
    }
  }

  private void showNotice(String text) {
    noticeText.setText(text);
    notice.setVisible(true);
  }

  /** Shoots each view in turn, then closes the window. */
  private void takeScreenshots(Path dir) {
    try {
      io.kvscope.index.store.OwnerOnly.directory(dir);
    } catch (IOException e) {
      outcome.completeExceptionally(e);
      stage.close();
      return;
    }
    Finding showcase = showcase(model.allFindings());
    // The window as it opens first (no time range), then each view, then what brushing a day does.
    List<Shot> shots = List.of(
        new Shot("1-overview", () -> tabs.getSelectionModel().select(findingsTab), () -> true),
        new Shot("2-evidence", () -> {
          model.selectedProperty().set(showcase);
          tabs.getSelectionModel().select(evidenceTab);
        }, () -> showcase == null || evidence.shownProperty().get() == showcase),
        new Shot("3-tenant-impact", () -> tabs.getSelectionModel().select(tenantsTab), () -> true),
        new Shot("4-config-audit", () -> tabs.getSelectionModel().select(configTab), () -> true),
        new Shot("5-time-range", this::brushBusiestDay, () -> true));
    new ScreenshotTour(stage.getScene(), dir, shots).start().whenComplete((files, error) -> {
      if (error != null) {
        outcome.completeExceptionally(error);
      } else {
        outcome.complete(files);
      }
      stage.close();
    });
  }

  /**
   * The finding the evidence shot shows: the best-evidenced counted leak (confirmed before probable,
   * then the most tokens from sources with spans). A suspect would show panes with little in them
   * and a leak the report does not count.
   */
  static Finding showcase(List<Finding> findings) {
    return findings.stream()
        .filter(f -> f.isCountedLeak() && f.sources().stream().anyMatch(s -> !s.spans().isEmpty()))
        .min(Comparator.comparing(Finding::confidence)
            .thenComparing(Comparator.comparingLong(Finding::matchedTokens).reversed()))
        .or(() -> findings.stream().filter(f -> f.requestId() != null).findFirst())
        .orElse(null);
  }

  /** For the timeline shot: brush the day with the most leaked responses, to show what brushing does. */
  private void brushBusiestDay() {
    tabs.getSelectionModel().select(findingsTab);
    model.hoursProperty().get().stream()
        .max(Comparator.comparingLong(h -> h.exposures()))
        .filter(h -> h.exposures() > 0)
        .ifPresent(h -> model.updateFilter(f -> f.withRange(io.kvscope.gui.model.TimeRange.hoursCovering(
            h.hour().minus(java.time.Duration.ofHours(12)), h.hour().plus(java.time.Duration.ofHours(11))))));
  }

  private static Tab tab(String title, javafx.scene.Node content) {
    Tab tab = new Tab(title, content);
    tab.setClosable(false);
    tab.setId(title.toLowerCase(java.util.Locale.ROOT).replace(' ', '-') + "-tab");
    return tab;
  }

  /** Stops background work and closes the index; safe to call more than once. */
  void release() {
    if (released) {
      return;
    }
    released = true;
    work.close();
    closeQuietly(model.index());
    if (!outcome.isDone()) {
      outcome.complete(List.of());
    }
  }

  private static void closeQuietly(IndexData index) {
    if (index != null) {
      try {
        index.close();
      } catch (IOException ignored) {
        // Read-only; nothing to lose.
      }
    }
  }

  /** Completes when the window closes: with the screenshots written in screenshot mode. */
  CompletableFuture<List<Path>> outcome() {
    return outcome;
  }

  WorkbenchModel model() {
    return model;
  }

  TabPane tabs() {
    return tabs;
  }

  TimelineView timeline() {
    return timeline;
  }

  EvidenceView evidence() {
    return evidence;
  }
}

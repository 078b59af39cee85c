package io.kvscope.gui;

import static io.kvscope.gui.FxSupport.await;
import static io.kvscope.gui.FxSupport.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Finding;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.gui.model.FindingGroup;
import io.kvscope.gui.text.Piece;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.ContentDisplay;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The workbench at 1280 x 800 on the demo incident ({@link DemoIncident}: generated, ingested and
 * analyzed as {@code kvscope demo} does): nothing drawn is cut off, nodes can be told apart, it
 * opens on the whole report with one row per request, the evidence panes describe what they hide,
 * and every number shown is the report's own.
 */
@ExtendWith(ApplicationExtension.class)
class DemoLayoutFxTest {

  @TempDir static Path dir;
  static DemoIncident demo;

  private WorkbenchWindow window;
  private Stage stage;

  @BeforeAll
  static void writeDemo() throws Exception {
    demo = DemoIncident.write(dir);
  }

  @Start
  void start(Stage stage) {
    this.stage = stage;
    window = new WorkbenchWindow(WorkbenchInput.of(demo.index(), demo.report()), owner -> new FxSupport.ScriptedChoosers());
    window.show(stage);
  }

  @AfterEach
  void release(FxRobot robot) {
    robot.interact(window::release);
  }

  private void awaitLoaded() {
    await("the index and report to load", () -> window.model().index() != null && window.model().report() != null);
    WaitForAsyncUtils.waitForFxEvents(5);
  }

  private List<FindingGroup> rows(FxRobot robot) {
    return onFx(() -> List.copyOf(robot.lookup("#findingsTable").<FindingGroup>queryTableView().getItems()));
  }

  @Test
  void nothingIsCutOffInAnyViewAt1280x800(FxRobot robot) {
    awaitLoaded();
    assertThat(onFx(() -> stage.getScene().getWidth())).isEqualTo(1280);
    assertThat(onFx(() -> stage.getScene().getHeight())).isEqualTo(800);
    assertThat(demo.report().summary().leakedResponses()).as("the demo has leaks to show").isPositive();

    assertThat(cutOff()).as("findings tab").isEmpty();
    TableView<?> findings = onFx(() -> robot.lookup("#findingsTable").queryTableView());
    robot.interact(() -> findings.scrollTo(findings.getItems().size() - 1));
    WaitForAsyncUtils.waitForFxEvents(5);
    assertThat(cutOff()).as("findings tab, scrolled to the last rows").isEmpty();

    Finding leak = showcase();
    robot.interact(() -> window.model().selectedProperty().set(leak));
    FxSupport.clickTab(robot, "Evidence");
    await("the evidence", () -> window.evidence().shownProperty().get() == leak);
    WaitForAsyncUtils.waitForFxEvents(5);
    assertThat(cutOff()).as("evidence tab").isEmpty();

    FxSupport.clickTab(robot, "Tenant impact");
    assertThat(cutOff()).as("tenant impact tab").isEmpty();

    FxSupport.clickTab(robot, "Config audit");
    assertThat(cutOff()).as("config audit tab").isEmpty();
    TableView<?> epochs = onFx(() -> robot.lookup("#epochTable").queryTableView());
    robot.interact(() -> epochs.scrollTo(epochs.getItems().size() - 1));
    WaitForAsyncUtils.waitForFxEvents(5);
    assertThat(cutOff()).as("config audit, scrolled to the last epochs").isEmpty();
  }

  @Test
  void everyNodeIsShownByALabelThatTellsItApart(FxRobot robot) {
    awaitLoaded();
    // Per role (prefill, decode), a label stands for one node and a node has one label.
    List<Map<String, String>> fullByLabel = List.of(new HashMap<>(), new HashMap<>());
    List<Map<String, String>> labelByFull = List.of(new HashMap<>(), new HashMap<>());
    Map<Object, String> cells = textOfEveryRow(robot, "#findingsTable", "Prefill \u2192 decode");
    for (Map.Entry<Object, String> cell : cells.entrySet()) {
      FindingGroup row = (FindingGroup) cell.getKey();
      if (row.isConfig()) {
        assertThat(row.node()).endsWith(cell.getValue());
        continue;
      }
      String[] labels = cell.getValue().split(" \u2192 ");
      String[] full = {row.node(), row.decodeNode()};
      assertThat(labels).hasSize(2);
      for (int role = 0; role < 2; role++) {
        assertThat(full[role]).endsWith(labels[role]);
        String node = fullByLabel.get(role).putIfAbsent(labels[role], full[role]);
        String label = labelByFull.get(role).putIfAbsent(full[role], labels[role]);
        assertThat(node == null || node.equals(full[role])).as("%s stands for %s and %s", labels[role], node, full[role])
            .isTrue();
        assertThat(label == null || label.equals(labels[role])).isTrue();
      }
    }
    // The demo's four decode nodes (a0, a1, b0, b1), each under its own label.
    assertThat(fullByLabel.get(1).values()).hasSize(4).allSatisfy(n -> assertThat(n).contains("decode"));
    assertThat(fullByLabel.get(1).keySet()).containsExactlyInAnyOrder("a0", "a1", "b0", "b1");
    FxSupport.clickTab(robot, "Config audit");
    Set<String> auditNodes = new HashSet<>();
    cellsOf(robot, "#epochTable", "Node").forEach(c -> auditNodes.add((String) c.getText()));
    assertThat(auditNodes).allSatisfy(n -> assertThat(n).startsWith("sglang-"));
    assertThat(auditNodes.stream().filter(n -> n.contains("decode"))).hasSizeGreaterThanOrEqualTo(2);
  }

  @Test
  void itOpensOnTheWholeReportWithOneRowPerLeakedRequestLeaksFirst(FxRobot robot) {
    awaitLoaded();
    List<Finding> all = demo.report().findings();

    assertThat(onFx(() -> window.model().filter().range())).isNull();
    assertThat(onFx(() -> robot.lookup("#timelineRange").queryLabeled().getText())).isEqualTo("Range: all");
    List<FindingGroup> rows = rows(robot);
    assertThat(onFx(() -> robot.lookup("#findingsCount").queryLabeled().getText()))
        .isEqualTo(rows.size() + " rows \u00B7 " + String.format("%,d", all.size()) + " of "
            + String.format("%,d", all.size()) + " findings");
    assertThat(rows.stream().flatMap(g -> g.findings().stream())).containsExactlyInAnyOrderElementsOf(all);
    Set<String> requests = new HashSet<>();
    for (FindingGroup row : rows) {
      if (!row.isConfig()) {
        assertThat(requests.add(row.requestId())).as("%s has one row", row.requestId()).isTrue();
      }
    }
    long leaked = rows.stream().filter(g -> g.leak() != null).count();
    assertThat(leaked).isEqualTo(demo.report().summary().leakedResponses());
    // The leaked responses come first, then the rest; config rows never lead.
    assertThat(rows.subList(0, (int) leaked)).allSatisfy(g -> assertThat(g.leak()).isNotNull());
    assertThat(rows.get(0).isConfig()).isFalse();
    // A leaked response shows its leak and the mechanism findings of the same request in one cell.
    FindingGroup first = rows.get(0);
    assertThat(first.findings().size()).isGreaterThan(1);
    assertThat(cellsOf(robot, "#findingsTable", "Findings").get(0).getText())
        .contains("overlap").contains("over-length").contains("underrun");
  }

  @Test
  void theNumbersShownAreTheReportsOwn(FxRobot robot) {
    awaitLoaded();
    Summary s = demo.report().summary();

    assertThat(figure(robot, "leaked-responses")).isEqualTo(String.format("%,d", s.leakedResponses()));
    // Sole attributions for sure, and up to every candidate: "34–62" when the two differ.
    assertThat(figure(robot, "source-requests")).isEqualTo(range(s.sourceRequests(), s.sourceRequestsPossible()));
    assertThat(figure(robot, "victim-tenants")).isEqualTo(range(s.victimTenants(), s.victimTenantsPossible()));
    assertThat(figure(robot, "recipient-tenants")).isEqualTo(String.format("%,d", s.recipientTenants()));
    assertThat(figure(robot, "over-length-accepted")).isEqualTo(String.format("%,d", s.overLengthAccepted()));
    assertThat(figure(robot, "underruns")).isEqualTo(String.format("%,d", s.prefillUnderruns()));
    FxSupport.clickTab(robot, "Tenant impact");
    List<TenantImpact> tenants = onFx(() -> List.copyOf(robot.lookup("#tenantTable").<TenantImpact>queryTableView().getItems()));
    assertThat(tenants).isEqualTo(demo.report().tenants());
    List<MatrixCell> cells = onFx(() -> robot.lookup(".matrix-hit").queryAll().stream()
        .map(n -> (MatrixCell) n.getUserData()).toList());
    assertThat(cells).containsExactlyInAnyOrderElementsOf(demo.report().matrix());
    assertThat(onFx(() -> window.model().hoursProperty().get())).isEqualTo(demo.report().timeline());
    // Per leaked request, the tokens shown add up to the report's tokens exposed.
    long tokens = rows(robot).stream().filter(g -> g.tokens() != null).mapToLong(FindingGroup::tokens).sum();
    assertThat(tokens).isEqualTo(s.tokensExposed());
  }

  @Test
  void maskedEvidenceDescribesWhatItHides(FxRobot robot) {
    awaitLoaded();
    Finding leak = showcase();
    robot.interact(() -> window.model().selectedProperty().set(leak));
    FxSupport.clickTab(robot, "Evidence");
    await("the evidence", () -> window.evidence().shownProperty().get() == leak);

    for (String pane : List.of("#recipientText", "#sourceText")) {
      List<Piece> pieces = onFx(() -> robot.from(robot.lookup(pane).<Node>query()).lookup((Node n) -> n instanceof Text t
          && t.getUserData() instanceof Piece).queryAllAs(Text.class).stream().map(t -> (Piece) t.getUserData()).toList());
      assertThat(pieces).as(pane).isNotEmpty().allSatisfy(p -> {
        switch (p.kind()) {
          // A stretch outside the spans: its length and its masked shape, never only a length.
          case MASK -> assertThat(p.display()).matches(Pattern.compile(" \\[[0-9,]+\u00A0chars: .*[*#\\[].*\\] ",
              Pattern.DOTALL));
          case MARK -> assertThat(p.display()).contains("hmac").contains("chars");
          default -> throw new AssertionError("masked text drew a " + p.kind() + " piece: " + p);
        }
      });
      assertThat(onFx(() -> robot.lookup(pane + "Detail").queryLabeled().getText()))
          .matches(".* \u00B7 [0-9,]+ chars \u00B7 hmac [0-9a-f]{8} \u00B7 .+");
    }
  }

  @Test
  void theScreenshotTourShowsAConfirmedLeakWithItsMarkedSpansAsTheEvidenceExample(FxRobot robot) throws Exception {
    awaitLoaded();
    robot.interact(window::release);
    Path shots = dir.resolve("shots");
    robot.interact(() -> {
      window = new WorkbenchWindow(WorkbenchInput.of(demo.index(), demo.report()).withScreenshots(shots),
          owner -> new FxSupport.ScriptedChoosers());
      window.show(stage);
    });
    List<Path> written = window.outcome().get(120, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(written).extracting(p -> p.getFileName().toString()).contains("2-evidence.png");

    // What the evidence shot showed: the view keeps it after the tour moves on and closes the window.
    Finding shown = onFx(() -> window.evidence().shownProperty().get());
    assertThat(shown.confidence()).isEqualTo(io.kvscope.model.finding.Confidence.CONFIRMED);
    assertThat(shown.isCountedLeak()).isTrue();
    for (String pane : List.of("#recipientText", "#sourceText")) {
      List<Piece> pieces = onFx(() -> robot.from(window.evidence()).lookup(pane).lookup((Node n) -> n instanceof Text t
          && t.getUserData() instanceof Piece).queryAllAs(Text.class).stream().map(t -> (Piece) t.getUserData()).toList());
      assertThat(pieces).as(pane).anyMatch(p -> p.kind() == Piece.Kind.MARK);
    }
  }

  private static String figure(FxRobot robot, String id) {
    return onFx(() -> robot.lookup("#figure-" + id).queryLabeled().getText());
  }

  /** The leak the screenshot tour shows as its evidence example. */
  private static Finding showcase() {
    return WorkbenchWindow.showcase(demo.report().findings());
  }

  /** Each row of {@code table} with the text its {@code column} cell draws, scrolling through the table to draw them all. */
  private static Map<Object, String> textOfEveryRow(FxRobot robot, String table, String column) {
    TableView<?> view = onFx(() -> robot.lookup(table).queryTableView());
    Map<Object, String> byRow = new java.util.LinkedHashMap<>();
    int rows = onFx(() -> view.getItems().size());
    for (int i = 0; i < rows; i += 8) {
      int at = i;
      robot.interact(() -> view.scrollTo(at));
      WaitForAsyncUtils.waitForFxEvents(3);
      // Read at once: the table reuses its cells for other rows as it scrolls.
      onFx(() -> {
        renderedCells(robot, table, column).forEach(c -> byRow.putIfAbsent(c.getTableRow().getItem(), c.getText()));
        return null;
      });
    }
    assertThat(byRow).hasSize(rows);
    return byRow;
  }

  /** The rendered cells of {@code table}'s column titled {@code column}, with their rows, in row order. */
  private static List<TableCell<?, ?>> cellsOf(FxRobot robot, String table, String column) {
    return onFx(() -> renderedCells(robot, table, column));
  }

  /** {@link #cellsOf}, on the FX thread. */
  private static List<TableCell<?, ?>> renderedCells(FxRobot robot, String table, String column) {
    return robot.from(robot.lookup(table).<Node>query()).lookup((Node n) -> n instanceof TableCell<?, ?> c
            && c.getTableColumn() != null && column.equals(c.getTableColumn().getText()) && c.isVisible()
            && !c.isEmpty() && c.getText() != null && c.getTableRow() != null && c.getTableRow().getItem() != null)
        .queryAll().stream().<TableCell<?, ?>>map(n -> (TableCell<?, ?>) n)
        .sorted(java.util.Comparator.comparingInt(TableCell::getIndex)).toList();
  }

  /**
   * Every text the window draws cut short: a label, button, tab, column header or table cell whose
   * drawn text is not its whole text (JavaFX replaces what does not fit with an ellipsis).
   */
  private List<String> cutOff() {
    return onFx(() -> {
      List<String> cut = new ArrayList<>();
      collect(stage.getScene().getRoot(), cut);
      return cut;
    });
  }

  private static void collect(Node node, List<String> cut) {
    if (!node.isVisible()) {
      return;
    }
    if (node instanceof Labeled l && l.getText() != null && !l.getText().isEmpty()
        && l.getContentDisplay() != ContentDisplay.GRAPHIC_ONLY && onScreen(l)) {
      for (Node child : l.getChildrenUnmodifiable()) {
        if (child instanceof Text drawn && child.getClass().getSimpleName().equals("LabeledText")
            && !l.getText().equals(drawn.getText())) {
          cut.add(describe(l) + ": \"" + l.getText() + "\" drawn as \"" + drawn.getText() + "\"");
        }
      }
    }
    // A button or chooser must not run past the window's right edge (a bar too wide for the window).
    if ((node instanceof javafx.scene.control.ButtonBase || node instanceof javafx.scene.control.ComboBoxBase<?>)
        && onScreen(node) && node.localToScene(node.getLayoutBounds()).getMaxX() > node.getScene().getWidth() + 0.5) {
      cut.add(describe(node) + ": runs past the window's right edge");
    }
    // A cell that wraps its text (drawn as its graphic) must be tall enough for every line.
    if (node instanceof Labeled l && l.getContentDisplay() == ContentDisplay.GRAPHIC_ONLY && l.getGraphic() instanceof Text t
        && t.getText() != null && !t.getText().isEmpty() && onScreen(l)
        && t.getLayoutBounds().getHeight() > l.getHeight() - l.snappedTopInset() - l.snappedBottomInset() + 1) {
      cut.add(describe(l) + ": \"" + t.getText() + "\" taller than its cell");
    }
    if (node instanceof Parent p) {
      for (Node child : p.getChildrenUnmodifiable()) {
        collect(child, cut);
      }
    }
  }

  /** Laid out with some width inside the window (virtual-flow spares and clipped-away cells are not drawn). */
  private static boolean onScreen(Node n) {
    Bounds b = n.localToScene(n.getLayoutBounds());
    return b.getWidth() > 0 && b.getMaxX() > 0 && b.getMinX() < n.getScene().getWidth() && b.getMaxY() > 0
        && b.getMinY() < n.getScene().getHeight();
  }

  private static String describe(Node n) {
    if (n instanceof TableCell<?, ?> c && c.getTableColumn() != null) {
      return "cell of column " + c.getTableColumn().getText();
    }
    return n.getClass().getSimpleName() + (n.getId() == null ? "" : "#" + n.getId());
  }

  private static String range(long sure, long possible) {
    return possible > sure ? String.format("%,d\u2013%,d", sure, possible) : String.format("%,d", sure);
  }
}

package io.kvscope.gui;

import static io.kvscope.gui.FxSupport.await;
import static io.kvscope.gui.FxSupport.choose;
import static io.kvscope.gui.FxSupport.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Span;
import io.kvscope.gui.IncidentFixture.Incident;
import io.kvscope.gui.IncidentFixture.Leak;
import io.kvscope.gui.model.FindingGroup;
import io.kvscope.gui.model.TimeRange;
import io.kvscope.gui.text.Piece;
import io.kvscope.gui.view.TimelineChart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import javafx.geometry.Bounds;
import javafx.geometry.Point2D;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.DialogPane;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.text.Text;
import io.kvscope.analysis.report.TraceLinks;
import javafx.scene.input.Clipboard;
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
 * The workbench driven as a user would, on a real index written by {@link IncidentFixture}: clicks,
 * typing and drags through the TestFX robot, expectations from the incident's ground truth.
 */
@ExtendWith(ApplicationExtension.class)
class WorkbenchFxTest {

  private static final String TRACE_URL = "https://langfuse.example.test/project/p1/traces/{trace_id}";

  @TempDir static Path dir;
  static Incident incident;

  private WorkbenchWindow window;
  private final FxSupport.ScriptedChoosers files = new FxSupport.ScriptedChoosers();
  private final List<String> bundles = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void writeIncident() throws Exception {
    incident = IncidentFixture.write(dir.resolve("index"), 40, 42L);
  }

  @Start
  void start(Stage stage) {
    TenantBundleExporter exporter = (report, tenant, target, progress) -> {
      bundles.add(tenant + " -> " + target);
      return Files.writeString(target.resolve(tenant + "-bundle.txt"), tenant);
    };
    window = new WorkbenchWindow(WorkbenchInput.of(dir.resolve("index"), incident.report()).withBundles(exporter)
        .withTraceLinks(TraceLinks.of(TRACE_URL)), owner -> files);
    window.show(stage);
  }

  @AfterEach
  void release(FxRobot robot) {
    robot.interact(window::release);
  }

  private void awaitLoaded() {
    await("the index and report to load", () -> window.model().index() != null && window.model().report() != null);
  }

  /** The findings in the table's rows. */
  private List<Finding> shown(FxRobot robot) {
    return rows(robot).stream().flatMap(g -> g.findings().stream()).toList();
  }

  private List<FindingGroup> rows(FxRobot robot) {
    return onFx(() -> List.copyOf(robot.lookup("#findingsTable").<FindingGroup>queryTableView().getItems()));
  }

  private static String text(FxRobot robot, String query) {
    return onFx(() -> robot.lookup(query).queryLabeled().getText());
  }

  @Test
  void filteringByTenantAndKindShowsExactlyThoseFindingsAndCountsThem(FxRobot robot) {
    awaitLoaded();

    choose(robot, "#tenantFilter", "globex");
    choose(robot, "#kindFilter", "cross_tenant_overlap");

    Set<String> expected = incident.leaks().stream()
        .filter(l -> l.kind() == FindingKind.CROSS_TENANT_OVERLAP)
        .filter(l -> l.source().tenant().equals("globex") || l.recipient().tenant().equals("globex"))
        .map(Leak::findingId).collect(Collectors.toSet());
    assertThat(expected).contains(incident.first().findingId());
    assertThat(shown(robot)).extracting(Finding::id).containsExactlyInAnyOrderElementsOf(expected);
    // One row per leaked response: each overlap is its request's only finding left by the kind filter.
    assertThat(text(robot, "#findingsCount")).isEqualTo(expected.size() + " rows \u00B7 " + expected.size() + " of "
        + incident.report().findings().size() + " findings");

    robot.clickOn("#resetFilters");
    assertThat(shown(robot)).hasSameSizeAs(incident.report().findings());
  }

  @Test
  void aLuceneQueryIsRunAgainstTheIndexAndIntersectedWithTheFindings(FxRobot robot) {
    awaitLoaded();

    robot.clickOn("#searchQuery").write("response_text:confidential AND tenant:globex").type(KeyCode.ENTER);
    Set<String> globexLeakResponses = incident.leaks().stream().filter(l -> l.recipient().tenant().equals("globex"))
        .map(l -> l.recipient().requestId()).collect(Collectors.toSet());
    // Each of those responses has its leak, over-length and underrun findings.
    List<String> expected = incident.report().findings().stream()
        .filter(f -> globexLeakResponses.contains(f.requestId())).map(Finding::id).toList();
    await("the search to apply", () -> window.model().filter().searchHits() != null);

    assertThat(expected).hasSize(globexLeakResponses.size() * 3);
    assertThat(shown(robot)).extracting(Finding::id).containsExactlyInAnyOrderElementsOf(expected);
    long globexConfidential = incident.requests().stream()
        .filter(r -> r.tenant().equals("globex") && r.responseText().contains("CONFIDENTIAL")).count();
    assertThat(text(robot, "#searchStatus")).isEqualTo("Query matched " + globexConfidential + " requests in the index");

    robot.doubleClickOn("#searchQuery").eraseText(60).write("prompt_tokens:[abc TO").type(KeyCode.ENTER);
    await("the parse error", () -> robot.lookup("#searchStatus").queryLabeled().getText().startsWith("Query not understood"));
    assertThat(shown(robot)).extracting(Finding::id).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void aTenantsNameTypedAsABareWordIsNotedAndTenantColonNameFiltersToThatTenant(FxRobot robot) {
    awaitLoaded();
    // globex's leaked ledger lines name globex, so other tenants' responses hold the word too.
    Set<String> othersHoldingGlobexData = incident.leaks().stream()
        .filter(l -> l.source().tenant().equals("globex") && !l.recipient().tenant().equals("globex"))
        .map(l -> l.recipient().requestId()).collect(Collectors.toSet());
    assertThat(othersHoldingGlobexData).as("the incident has globex data in other tenants' responses").isNotEmpty();

    robot.clickOn("#searchQuery").write("globex").type(KeyCode.ENTER);
    await("the search to apply", () -> "globex".equals(window.model().filter().searchQuery()));
    assertThat(onFx(() -> robot.lookup("#searchNote").query().isVisible())).isTrue();
    assertThat(text(robot, "#searchNote")).isEqualTo("'globex' is also a tenant: a bare word searches the prompt and"
        + " response text of every tenant; for globex's own requests, search tenant:globex");
    assertThat(shown(robot)).extracting(Finding::requestId).containsAll(othersHoldingGlobexData);

    robot.doubleClickOn("#searchQuery").eraseText(20).write("tenant:globex").type(KeyCode.ENTER);
    await("the tenant search to apply", () -> "tenant:globex".equals(window.model().filter().searchQuery()));
    Set<String> globexRequests = incident.requests().stream().filter(r -> r.tenant().equals("globex"))
        .map(r -> r.requestId()).collect(Collectors.toSet());
    List<String> expected = incident.report().findings().stream()
        .filter(f -> globexRequests.contains(f.requestId())).map(Finding::id).toList();
    assertThat(expected).isNotEmpty();
    assertThat(shown(robot)).extracting(Finding::id).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(text(robot, "#searchStatus")).isEqualTo("Query matched " + globexRequests.size() + " requests in the index");
    assertThat(onFx(() -> robot.lookup("#searchNote").query().isVisible())).isFalse();
    assertThat(onFx(() -> robot.lookup("#searchNote").query().isManaged())).as("takes no room").isFalse();
  }

  @Test
  void openingAFindingMarksItsSpansOnBothSidesMaskedUntilARevealIsConfirmed(FxRobot robot) {
    awaitLoaded();
    Leak leak = incident.first();
    Finding finding = incident.finding(leak.findingId());

    robot.clickOn("#searchQuery").write("request_id:\"" + finding.requestId() + "\"").type(KeyCode.ENTER);
    await("the search to narrow the table to the request's row",
        () -> robot.lookup("#findingsTable").queryTableView().getItems().size() == 1);
    assertThat(shown(robot)).hasSize(3);
    Node row = robot.lookup((Node n) -> n instanceof TableCell<?, ?> c && c.getTableRow() != null
        && c.getTableRow().getItem() instanceof FindingGroup g && finding.requestId().equals(g.requestId())
        && "Recipient".equals(c.getTableColumn().getText())).query();
    robot.clickOn(row).type(KeyCode.ENTER);
    await("the evidence to show", () -> window.evidence().shownProperty().get() == finding);
    assertThat(onFx(() -> window.tabs().getSelectionModel().getSelectedItem().getText())).isEqualTo("Evidence");

    // The request's trace: its id among the facts, and its link copied for the tracing tool.
    String rid = finding.requestId().substring("chatcmpl-".length());
    String traceId = IncidentFixture.traceId(rid);
    assertThat(onFx(() -> robot.lookup("#factsTable").<io.kvscope.gui.view.FactRow>queryTableView().getItems().stream()
        .filter(r -> r.fact().equals("Trace id")).findFirst().orElseThrow().recipient())).isEqualTo(traceId);
    robot.clickOn("#traceLinkButton");
    assertThat(onFx(() -> Clipboard.getSystemClipboard().getString()))
        .isEqualTo("https://langfuse.example.test/project/p1/traces/" + traceId);

    // Masked: every span is marked where the finding says, on both sides, and no content is drawn.
    List<Span> spans = leak.spans();
    assertThat(marks(robot, "#recipientText")).extracting(p -> List.of(p.start(), p.end()))
        .containsExactlyElementsOf(spans.stream().map(s -> List.of(s.responseStart(), s.responseEnd())).toList());
    assertThat(marks(robot, "#sourceText")).extracting(p -> List.of(p.start(), p.end()))
        .containsExactlyElementsOf(spans.stream().map(s -> List.of(s.sourceStart(), s.sourceEnd())).toList());
    assertThat(FxSupport.allTexts(robot)).noneMatch(t -> t.contains("CONFIDENTIAL") || t.contains("wire transfer"));

    // Reveal asks first; cancelling keeps everything masked.
    robot.clickOn("#revealButton");
    DialogPane dialog = onFx(() -> robot.lookup("#revealDialog").query());
    robot.clickOn(onFx(() -> dialog.lookupButton(ButtonType.CANCEL)));
    assertThat(onFx(() -> window.model().revealedProperty().get())).isFalse();
    assertThat(FxSupport.allTexts(robot)).noneMatch(t -> t.contains("CONFIDENTIAL"));

    robot.clickOn("#revealButton");
    DialogPane again = onFx(() -> robot.lookup("#revealDialog").query());
    Node confirm = onFx(() -> again.getButtonTypes().stream().map(again::lookupButton)
        .filter(b -> ((Button) b).getText().equals("Reveal")).findFirst().orElseThrow());
    robot.clickOn(confirm);
    await("the content to show", () -> window.model().revealedProperty().get());

    // Revealed: each marked run is exactly the shared text, in the response and in the source prompt.
    assertThat(markTexts(robot, "#recipientText")).containsExactlyElementsOf(leak.secrets());
    assertThat(markTexts(robot, "#sourceText")).containsExactlyElementsOf(leak.secrets());

    // Stepping to the third span marks it as current and scrolls it into view in the long source.
    robot.clickOn("#nextSpan").clickOn("#nextSpan");
    WaitForAsyncUtils.waitForFxEvents(5);
    assertThat(onFx(() -> robot.lookup("#sourceText .piece-mark-current").queryAs(Text.class).getText()))
        .isEqualTo(leak.secrets().get(2));
    await("the current span to be scrolled into view", () -> {
      ScrollPane scroll = robot.lookup("#sourceTextScroll").queryAs(ScrollPane.class);
      Text current = robot.lookup("#sourceText .piece-mark-current").queryAs(Text.class);
      Bounds viewport = scroll.localToScene(scroll.getLayoutBounds());
      Bounds span = current.localToScene(current.getBoundsInLocal());
      return scroll.getVvalue() > 0 && viewport.intersects(span);
    });

    robot.clickOn("#revealButton");
    assertThat(FxSupport.allTexts(robot)).noneMatch(t -> t.contains("CONFIDENTIAL"));
  }

  /**
   * A span found in another logged copy of a text (its offsets in that copy, so the kept texts hold
   * other words there, as the analysis writes it when records disagree): never marked on the kept
   * texts. A span that names its copy shows that copy's own text, the span marked on it (masked
   * until revealed, as any text); one that names none (a report written before spans named their
   * copies) says why it is not marked. The spans that lie on the kept texts are marked there.
   */
  @Test
  void aSpanFoundInAnotherLoggedCopyShowsThatCopyAndIsNotMarkedOnTheKeptTexts(FxRobot robot) {
    awaitLoaded();
    Leak leak = incident.first();
    Finding finding = incident.finding(leak.findingId());
    Source source = finding.sources().getFirst();
    List<Span> spans = new ArrayList<>(source.spans());
    Span moved = spans.get(1);
    // Span 1 in the source's logged prompt copy (IncidentFixture.promptCopy), which holds its secret elsewhere.
    int inCopy = IncidentFixture.promptCopy(leak).indexOf(leak.secrets().get(1));
    spans.set(1, new Span(moved.responseStart(), moved.responseEnd(), moved.sourceField(), inCopy,
        inCopy + moved.sourceEnd() - moved.sourceStart(), moved.tokens(), null, IncidentFixture.PROMPT_COPY_FROM));
    // Span 2 as a report that names no copy: the same length, 40 chars further on in the kept prompt.
    Span unnamed = spans.get(2);
    spans.set(2, new Span(unnamed.responseStart(), unnamed.responseEnd(), unnamed.sourceField(),
        unnamed.sourceStart() + 40, unnamed.sourceEnd() + 40, unnamed.tokens()));
    Finding inACopy = new Finding(finding.id(), finding.kind(), finding.confidence(), finding.requestId(),
        finding.engineRid(), finding.tenant(), finding.time(), finding.node(), finding.decodeNode(),
        List.of(new Source(source.requestId(), source.engineRid(), source.tenant(), source.matchedTokens(), spans,
            source.attribution())), finding.evidence());

    robot.interact(() -> window.model().selectedProperty().set(inACopy));
    await("the evidence to show", () -> window.evidence().shownProperty().get() == inACopy);

    // Span 0 is current: the kept texts, with the spans that lie on them (span 0; span 1 is on the
    // same reply, its source end in the copy; span 2 on no text).
    assertThat(marks(robot, "#recipientText")).extracting(p -> List.of(p.start(), p.end()))
        .containsExactly(List.of(spans.get(0).responseStart(), spans.get(0).responseEnd()),
            List.of(spans.get(1).responseStart(), spans.get(1).responseEnd()));
    assertThat(marks(robot, "#sourceText")).extracting(p -> List.of(p.start(), p.end()))
        .containsExactly(List.of(spans.get(0).sourceStart(), spans.get(0).sourceEnd()));
    List<String> choices = onFx(() -> robot.lookup("#spanChoice").<javafx.scene.control.ComboBox<?>>query().getItems()
        .stream().map(String::valueOf).toList());
    assertThat(choices).hasSize(3);
    assertThat(choices.get(0)).doesNotContain("copy");
    assertThat(choices.get(1)).endsWith(" \u00B7 in a logged copy");
    assertThat(choices.get(2)).contains("in another logged copy of the reply or the source's prompt: not marked");

    // Span 1: the source pane shows the copy, named, and marks the span on it; masked until revealed.
    robot.interact(() -> {
      javafx.scene.control.ComboBox<?> chooser = robot.lookup("#spanChoice").query();
      chooser.getSelectionModel().select(1);
    });
    WaitForAsyncUtils.waitForFxEvents(5);
    assertThat(FxSupport.allTexts(robot)).anyMatch(t -> t.contains("copy from " + IncidentFixture.PROMPT_COPY_FROM))
        .noneMatch(t -> t.contains(leak.secrets().get(1)));
    assertThat(marks(robot, "#sourceText")).extracting(p -> List.of(p.start(), p.end()))
        .containsExactly(List.of(spans.get(1).sourceStart(), spans.get(1).sourceEnd()));
    robot.interact(() -> window.model().revealedProperty().set(true)); // the confirmation is the test above's
    WaitForAsyncUtils.waitForFxEvents(5);
    assertThat(markTexts(robot, "#sourceText")).containsExactly(leak.secrets().get(1));
    assertThat(markTexts(robot, "#recipientText")).containsExactly(leak.secrets().get(0), leak.secrets().get(1));
    robot.interact(() -> window.model().revealedProperty().set(false));
  }

  /** The marked runs drawn in a text pane, in text order. */
  private static List<Text> markNodes(FxRobot robot, String pane) {
    return onFx(() -> {
      Node root = robot.lookup(pane).query();
      return robot.from(root).lookup((Node n) -> n instanceof Text t
              && (t.getStyleClass().contains("piece-mark") || t.getStyleClass().contains("piece-mark-current")))
          .queryAllAs(Text.class).stream()
          .sorted(java.util.Comparator.comparingInt(t -> ((Piece) t.getUserData()).start())).toList();
    });
  }

  private static List<Piece> marks(FxRobot robot, String pane) {
    return markNodes(robot, pane).stream().map(t -> (Piece) t.getUserData()).toList();
  }

  private static List<String> markTexts(FxRobot robot, String pane) {
    return onFx(() -> markNodes(robot, pane).stream().map(Text::getText).toList());
  }

  @Test
  void theConfigAuditMarksNodesWhosePoolIsBelowTheirContextLength(FxRobot robot) {
    awaitLoaded();
    FxSupport.clickTab(robot, "Config audit");
    WaitForAsyncUtils.waitForFxEvents();

    List<String> failedCells = onFx(() -> robot.lookup("#epochTable .table-cell.audit-failed").queryAllAs(Labeled.class)
        .stream().map(Labeled::getText).toList());
    long belowContext = incident.epochs().stream().filter(e -> e.poolTokens() < e.contextLength()).count();

    assertThat(belowContext).isEqualTo(2);
    assertThat(failedCells.stream().filter("681,280"::equals).count()).isEqualTo(belowContext);
    assertThat(failedCells.stream().filter("1,048,576"::equals).count()).isEqualTo(belowContext);
    assertThat(failedCells).doesNotContain("2,200,000", "1,400,000");
    assertThat(text(robot, "#auditSummary")).contains("2/4 nodes: KV pool below context length");
    // The cells say what the report says, not what the GUI would judge: the report names two
    // unpatched engines and no missing safeguard, though the fixture's logs show canaries off.
    long unpatched = incident.report().findings().stream()
        .filter(f -> f.kind() == FindingKind.CONFIG_UNPATCHED_ENGINE).count();
    assertThat(failedCells.stream().filter(c -> c.startsWith("0.5.")).count()).isEqualTo(unpatched).isEqualTo(2);
    assertThat(failedCells).doesNotContain("off");
    assertThat(text(robot, "#auditSummary")).doesNotContain("canary");

    // decode-0's version no record told: amber, and its tooltip is the audit's finding with what would settle it
    List<javafx.scene.control.TableCell<?, ?>> unknownVersions = onFx(() -> robot.lookup("#epochTable .table-cell.audit-unknown")
        .queryAllAs(javafx.scene.control.TableCell.class).stream()
        .filter(c -> "unknown".equals(c.getText()) && "Version".equals(c.getTableColumn().getText()) && !c.isEmpty())
        .<javafx.scene.control.TableCell<?, ?>>map(c -> c).toList());
    assertThat(onFx(() -> unknownVersions.stream()
        .map(c -> String.valueOf(c.getTableView().getColumns().get(0).getCellData(c.getIndex()))).distinct().toList()))
        .containsExactly("decode-0");
    assertThat(onFx(() -> unknownVersions.get(0).getTooltip().getText())).contains("config_engine_version_unknown")
        .contains("kubectl get pod").contains("/get_server_info");
    assertThat(failedCells).as("an unknown version is not a failed one").doesNotContain("unknown");
  }

  @Test
  void itOpensOnTheWholeReportWithOneRowPerLeakedRequestLeaksFirst(FxRobot robot) {
    awaitLoaded();

    assertThat(onFx(() -> window.model().filter().range())).isNull();
    assertThat(text(robot, "#timelineRange")).isEqualTo("Range: all");
    List<FindingGroup> rows = rows(robot);
    assertThat(shown(robot)).containsExactlyInAnyOrderElementsOf(incident.report().findings());
    for (Leak leak : incident.leaks()) {
      List<FindingGroup> of = rows.stream().filter(g -> leak.recipient().requestId().equals(g.requestId())).toList();
      assertThat(of).as(leak.findingId()).hasSize(1);
      assertThat(of.get(0).kinds()).containsExactly(leak.kind(), FindingKind.OVER_LENGTH_ACCEPTED,
          FindingKind.PREFILL_UNDERRUN);
    }
    assertThat(rows.subList(0, incident.leaks().size())).allSatisfy(g -> assertThat(g.leak()).isNotNull());
    assertThat(rows.subList(incident.leaks().size(), rows.size())).allSatisfy(g -> assertThat(g.leak()).isNull());
  }

  @Test
  void brushingATimeRangeOnTheTimelineFiltersTheOtherViews(FxRobot robot) {
    awaitLoaded();
    TimelineChart chart = window.timeline().chart();
    Instant centre = Instant.ofEpochMilli(incident.first().recipient().startTime());
    Instant from = centre.minus(Duration.ofHours(10));
    Instant to = centre.plus(Duration.ofHours(10));
    Point2D start = onFx(() -> chart.localToScreen(chart.xFor(from), chart.barAreaMiddleY()));
    Point2D end = onFx(() -> chart.localToScreen(chart.xFor(to), chart.barAreaMiddleY()));

    robot.drag(start, MouseButton.PRIMARY).moveTo(end).drop();
    await("the brushed range", () -> window.model().filter().range() != null);

    TimeRange range = onFx(() -> window.model().filter().range());
    assertThat(range.start()).isBetween(from.minus(Duration.ofHours(2)), from);
    assertThat(range.end()).isBetween(to, to.plus(Duration.ofHours(2)));
    List<String> inRange = incident.report().findings().stream()
        .filter(f -> !f.time().isBefore(range.start()) && f.time().isBefore(range.end()))
        .map(Finding::id).toList();
    assertThat(inRange).contains(incident.first().findingId()).hasSizeLessThan(incident.report().findings().size());
    assertThat(shown(robot)).extracting(Finding::id).containsExactlyInAnyOrderElementsOf(inRange);
    assertThat(text(robot, "#impactScope")).endsWith("selection (" + inRange.size() + " findings)");

    robot.clickOn("#clearRange");
    assertThat(shown(robot)).hasSameSizeAs(incident.report().findings());
  }

  @Test
  void exportingTheSelectionWritesTheShownFindingsOwnerOnly(FxRobot robot) throws Exception {
    awaitLoaded();
    choose(robot, "#tenantFilter", "acme");
    int shown = shown(robot).size();
    files.nextFile = dir.resolve("exports").resolve("acme-findings.csv");

    robot.clickOn("#exportFindingsCsv");
    await("the export", () -> Files.exists(files.nextFile));

    List<String> lines = Files.readAllLines(files.nextFile);
    assertThat(lines).hasSize(shown + 1);
    assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l).contains("acme"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(files.nextFile))).isEqualTo("rw-------");
    await("the status line", () -> robot.lookup("#statusLine").queryLabeled().getText().startsWith("Exported " + shown));
  }

  @Test
  void aTenantBundleGoesThroughTheWiredExporterIntoTheChosenFolder(FxRobot robot) throws Exception {
    awaitLoaded();
    FxSupport.clickTab(robot, "Tenant impact");
    files.nextDirectory = Files.createDirectories(dir.resolve("bundles"));
    TableView<?> table = onFx(() -> robot.lookup("#tenantTable").queryTableView());
    assertThat(onFx(() -> table.getItems().size())).isEqualTo(incident.report().tenants().size());

    Node acme = onFx(() -> robot.from(table).lookup((Node n) -> n instanceof TableCell<?, ?> c && "acme".equals(c.getText()))
        .query());
    robot.clickOn(acme).clickOn("#exportBundle");
    await("the bundle (status: " + onFx(() -> robot.lookup("#statusLine").queryLabeled().getText()) + ", asked: "
        + files.asked + ")", () -> Files.exists(files.nextDirectory.resolve("acme-bundle.txt")));

    assertThat(bundles).containsExactly("acme -> " + files.nextDirectory);
    await("the status line", () -> robot.lookup("#statusLine").queryLabeled().getText().contains("acme's bundle"));
    Label scope = onFx(() -> robot.lookup("#impactScope").queryAs(Label.class));
    assertThat(onFx(scope::getText)).endsWith("whole report");
  }

  @Test
  void aConfigFindingOpensWithItsEvidenceAndNoRequestFacts(FxRobot robot) {
    awaitLoaded();
    choose(robot, "#kindFilter", "config_pool_below_context");
    assertThat(shown(robot)).extracting(Finding::node).containsExactlyInAnyOrder("prefill-0", "prefill-1");

    Node table = onFx(() -> robot.lookup("#findingsTable").query());
    Node row = onFx(() -> robot.from(table).lookup((Node n) -> n instanceof TableCell<?, ?> c
        && "prefill-0".equals(c.getText())).query());
    robot.clickOn(row).type(KeyCode.ENTER);
    await("the evidence to show", () -> window.evidence().shownProperty().get() != null);

    assertThat(text(robot, "#recipientTextDetail")).isEqualTo("a config finding: no request");
    TableView<?> facts = onFx(() -> robot.lookup("#factsTable").queryTableView());
    assertThat(onFx(() -> facts.getItems().size())).isZero();
    assertThat(onFx(() -> ((Label) facts.getPlaceholder()).getText())).contains("prefill-0");
    TableView<?> evidence = onFx(() -> robot.lookup("#evidenceTable").queryTableView());
    assertThat(onFx(() -> evidence.getItems().size())).isEqualTo(3);
  }

  @Test
  void clickingAHeatMapCellShowsTheRecipientsFindings(FxRobot robot) {
    awaitLoaded();
    FxSupport.clickTab(robot, "Tenant impact");
    Node cell = onFx(() -> robot.lookup(".matrix-hit").query());
    String recipient = onFx(() -> ((io.kvscope.analysis.impact.MatrixCell) cell.getUserData()).recipientTenant());

    robot.clickOn(cell);
    await("the tenant filter", () -> recipient.equals(window.model().filter().tenant()));

    List<String> expected = incident.report().findings().stream()
        .filter(f -> recipient.equals(f.tenant()) || f.sources().stream().anyMatch(src -> recipient.equals(src.tenant())))
        .map(Finding::id).toList();
    assertThat(shown(robot)).extracting(Finding::id).containsExactlyInAnyOrderElementsOf(expected);
    // The tenant table now counts only that selection: the recipient's own row matches the ground truth.
    TableView<?> tenants = onFx(() -> robot.lookup("#tenantTable").queryTableView());
    var row = onFx(() -> tenants.getItems().stream().map(io.kvscope.analysis.impact.TenantImpact.class::cast)
        .filter(t -> t.tenant().equals(recipient)).findFirst().orElseThrow());
    var truth = incident.report().tenants().stream().filter(t -> t.tenant().equals(recipient)).findFirst().orElseThrow();
    assertThat(row).isEqualTo(truth);
  }
}

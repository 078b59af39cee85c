package io.kvscope.gui;

import static io.kvscope.gui.FxSupport.await;
import static io.kvscope.gui.FxSupport.choose;
import static io.kvscope.gui.FxSupport.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Tenants;
import io.kvscope.analysis.impact.Coverage;
import io.kvscope.analysis.impact.ImpactModel;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.gui.IncidentFixture.Incident;
import io.kvscope.gui.model.FindingGroup;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javafx.scene.Node;
import javafx.scene.control.TableCell;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * A tenant the logs did not resolve is shown under one name everywhere: in the findings table, the
 * tenant filter, the tenant table and the matrix, as the analysis names it ({@link Tenants#UNKNOWN}).
 */
@ExtendWith(ApplicationExtension.class)
class UnknownTenantFxTest {

  @TempDir static Path dir;
  static Incident incident;
  static Report report;
  /** The leaked response whose recipient, and the one whose source, lost their tenant. */
  static String unknownRecipient;
  static String unknownSource;

  private WorkbenchWindow window;

  @BeforeAll
  static void writeIncident() throws Exception {
    incident = IncidentFixture.write(dir.resolve("index"), 10, 11L);
    unknownRecipient = incident.leaks().get(0).recipient().requestId();
    unknownSource = incident.leaks().get(1).recipient().requestId();
    List<Finding> findings = new ArrayList<>();
    for (Finding f : incident.report().findings()) {
      String tenant = unknownRecipient.equals(f.requestId()) ? null : f.tenant();
      List<Source> sources = f.sources().stream().map(s -> !unknownSource.equals(f.requestId()) ? s
          : new Source(s.requestId(), s.engineRid(), null, s.matchedTokens(), s.spans(), s.attribution())).toList();
      findings.add(new Finding(f.id(), f.kind(), f.confidence(), f.requestId(), f.engineRid(), tenant, f.time(), f.node(),
          f.decodeNode(), sources, f.evidence()));
    }
    // The report as the analysis builds it from those findings.
    report = ImpactModel.build(new ImpactModel.Inputs(findings, List.of(), Map.of(),
        new Coverage(List.of(), incident.requests().size(), 0, 0), Map.of(), dir.toString(), Instant.now()));
  }

  @Start
  void start(Stage stage) {
    window = new WorkbenchWindow(WorkbenchInput.of(dir.resolve("index"), report), owner -> new FxSupport.ScriptedChoosers());
    window.show(stage);
  }

  @AfterEach
  void release(FxRobot robot) {
    robot.interact(window::release);
  }

  @Test
  void anUnresolvedTenantHasOneNameInEveryView(FxRobot robot) {
    await("the index and report to load", () -> window.model().index() != null && window.model().report() != null);

    assertThat(report.tenants()).extracting(TenantImpact::tenant).contains(Tenants.UNKNOWN);
    String recipientCell = onFx(() -> robot.lookup((Node n) -> n instanceof TableCell<?, ?> c && c.getTableRow() != null
        && c.getTableRow().getItem() instanceof FindingGroup g && unknownRecipient.equals(g.requestId())
        && "Recipient".equals(c.getTableColumn().getText())).queryAs(TableCell.class).getText());
    assertThat(recipientCell).isEqualTo(Tenants.UNKNOWN);

    choose(robot, "#tenantFilter", Tenants.UNKNOWN);
    Set<String> shown = Set.copyOf(onFx(() -> robot.lookup("#findingsTable").<FindingGroup>queryTableView().getItems()
        .stream().map(FindingGroup::requestId).toList()));
    assertThat(shown).containsExactlyInAnyOrder(unknownRecipient, unknownSource);

    robot.clickOn("#resetFilters");
    FxSupport.clickTab(robot, "Tenant impact");
    List<String> tenants = onFx(() -> robot.lookup("#tenantTable").<TenantImpact>queryTableView().getItems().stream()
        .map(TenantImpact::tenant).toList());
    assertThat(tenants).isEqualTo(report.tenants().stream().map(TenantImpact::tenant).toList()).contains(Tenants.UNKNOWN);
    assertThat(FxSupport.allTexts(robot)).contains(Tenants.UNKNOWN).doesNotContain("null");
  }
}

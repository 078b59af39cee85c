package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.ImpactModel;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.gui.model.FindingGroup;
import io.kvscope.gui.model.WorkbenchModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One incident, one set of figures: what analyze prints, report.json, report.md, report.html, every
 * tenant's notice, the audit and the workbench's model say the same numbers of leaked responses,
 * tokens, and each tenant's requests, responses and tokens. A response's tokens are counted once
 * per passage everywhere, however many candidate sources held it.
 */
class CountsAgreeTest {

  @TempDir static Path tmp;
  static Report report;
  static String stdout;
  static String markdown;
  static String html;
  static Path reports;
  static Path index;

  @BeforeAll
  static void analyzeAGeneratedIncident() throws Exception {
    CliTestSupport.Analyzed run = CliTestSupport.analyzedIncident(tmp, "0.15x", "3");
    index = run.index();
    reports = run.reports();
    stdout = run.analyze().out();
    report = ReportJson.read(reports.resolve("report.json"));
    markdown = Files.readString(reports.resolve("report.md"));
    html = Files.readString(reports.resolve("report.html"));
    assertThat(report.summary().leakedResponses()).as("the incident has leaks with candidate sources").isGreaterThan(1);
    assertThat(report.summary().sourceRequestsPossible()).isGreaterThan(report.summary().sourceRequests());
  }

  @Test
  void theSummaryIsTheSameInEveryOutput() {
    Summary s = report.summary();
    assertThat(stdout).contains(String.format(Locale.ROOT, "confirmed+probable): %,d%n", s.leakedResponses()).strip())
        .contains(String.format(Locale.ROOT, "tokens exposed: %,d", s.tokensExposed()));
    assertThat(markdown).contains("| Leaked responses | " + s.leakedResponses() + " |")
        .contains("| Tokens exposed | " + String.format(Locale.ROOT, "%,d", s.tokensExposed()) + " |");
    assertThat(html).contains("Leaked responses</div><div class=\"value\">" + s.leakedResponses() + "<")
        .contains("Tokens exposed</div><div class=\"value\">" + String.format(Locale.ROOT, "%,d", s.tokensExposed()) + "<");
  }

  @Test
  void everyTenantsNoticeGivesTheReportsFigures() throws Exception {
    ObjectMapper json = new ObjectMapper();
    long responsesWithForeignData = 0;
    long foreignTokens = 0;
    Map<String, JsonNode> bundles = new HashMap<>();
    try (Stream<Path> dirs = Files.list(reports.resolve("bundles"))) {
      for (Path dir : dirs.toList()) {
        JsonNode notice = json.readTree(dir.resolve("notification.json").toFile());
        bundles.put(notice.get("tenant").asText(), notice.get("summary"));
      }
    }
    for (TenantImpact t : report.tenants()) {
      JsonNode b = bundles.get(t.tenant());
      assertThat(b).as("notice of %s", t.tenant()).isNotNull();
      assertThat(b.get("requests_exposed").asLong()).as(t.tenant()).isEqualTo(t.asVictim().requests());
      assertThat(b.get("requests_exposed").asLong() + b.get("requests_possibly_exposed").asLong()).as(t.tenant())
          .isEqualTo(t.asVictim().requestsPossible());
      assertThat(b.get("responses_that_carried_them").asLong()).as(t.tenant()).isEqualTo(t.asVictim().recipients());
      assertThat(b.get("responses_that_carried_them").asLong() + b.get("responses_that_possibly_carried_them").asLong())
          .as(t.tenant()).isEqualTo(t.asVictim().recipientsPossible());
      assertThat(b.get("tokens_exposed").asLong()).as(t.tenant()).isEqualTo(t.asVictim().tokens());
      assertThat(b.get("responses_with_foreign_data").asLong()).as(t.tenant()).isEqualTo(t.asRecipient().responses());
      assertThat(b.get("foreign_tokens_received").asLong()).as(t.tenant()).isEqualTo(t.asRecipient().tokens());
      responsesWithForeignData += b.get("responses_with_foreign_data").asLong();
      foreignTokens += b.get("foreign_tokens_received").asLong();
      if (t.asVictim().requestsPossible() > 0) {
        // One of a kind is singular ("1 request"), a range or any other count plural ("0-1 responses").
        long requests = t.asVictim().requestsPossible();
        long responses = t.asVictim().recipientsPossible();
        String line = String.format(Locale.ROOT, "%s %s leaked into %s %s",
            range(t.asVictim().requests(), requests), t.asVictim().requests() == 1 && requests == 1 ? "request" : "requests",
            range(t.asVictim().recipients(), responses),
            t.asVictim().recipients() == 1 && responses == 1 ? "response" : "responses");
        if (stdout.contains(" " + t.tenant() + " ")) {
          assertThat(stdout).as("stdout's line of %s", t.tenant()).contains(line);
        }
      }
    }
    // Every leaked response went to one tenant: the notices add up to the summary.
    assertThat(responsesWithForeignData).isEqualTo(report.summary().leakedResponses());
    assertThat(foreignTokens).isEqualTo(report.summary().tokensExposed());
  }

  @Test
  void aResponsesTokensAreTheSameInTheFindingsTablesAndTheWorkbench() {
    Map<String, ImpactModel.Response> leaks = ImpactModel.leakedResponses(report.findings());
    WorkbenchModel model = new WorkbenchModel();
    model.setReport(report);
    Map<String, Long> workbench = model.allGroups().stream().filter(g -> g.leak() != null)
        .collect(Collectors.toMap(FindingGroup::requestId, FindingGroup::tokens));
    assertThat(workbench).hasSameSizeAs(leaks);
    long summed = 0;
    for (ImpactModel.Response response : leaks.values()) {
      String tokens = String.format(Locale.ROOT, "%,d", response.tokens());
      assertThat(workbench.get(response.requestId())).isEqualTo(response.tokens());
      for (String row : rows(html, response.requestId())) {
        assertThat(row).as("report.html's row of %s", response.requestId()).endsWith("<td class=\"num\">" + tokens + "</td>");
      }
      summed += response.tokens();
    }
    assertThat(summed).isEqualTo(report.summary().tokensExposed());
    assertThat(model.impactProperty().get().tenants()).isEqualTo(report.tenants());
  }

  @Test
  void theAuditCountsFailingResponsesNotFindings() {
    Set<String> failing = report.findings().stream()
        .filter(f -> f.confidence().counts() && f.requestId() != null && (f.kind().isCrossTenantLeak()
            || f.kind() == FindingKind.OVER_LENGTH_ACCEPTED || f.kind() == FindingKind.PREFILL_UNDERRUN))
        .map(Finding::requestId).collect(Collectors.toSet());
    assertThat(failing).as("some responses fail on more than one finding").hasSizeLessThan(
        (int) report.findings().stream().filter(f -> failing.contains(f.requestId()) && f.confidence().counts()).count());
    CliTestSupport.Run audit = CliTestSupport.run("audit", "--index", index.toString());
    assertThat(audit.out()).contains("audit: FAILED, " + failing.size() + (failing.size() == 1 ? " response" : " responses"));
  }

  /** The findings-table rows of report.html about {@code requestId}, each up to its closing cell. */
  private static List<String> rows(String page, String requestId) {
    String table = page.substring(page.indexOf("id=\"findings-table\""));
    table = table.substring(0, table.indexOf("</table>"));
    return Stream.of(table.split("</tr>")).filter(r -> r.contains("<td class=\"id\">" + requestId + "</td>"))
        .filter(r -> r.contains("data-kind=\"cross_tenant") || r.contains("data-kind=\"rare_identifier")
            || r.contains("data-kind=\"canary"))
        .filter(r -> !r.contains("data-confidence=\"suspect\""))
        .toList();
  }

  private static String range(long certain, long possible) {
    return possible > certain ? String.format(Locale.ROOT, "%,d-%,d", certain, possible)
        : String.format(Locale.ROOT, "%,d", certain);
  }
}

package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Window;
import io.kvscope.index.store.Redaction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownReportTest {

  @TempDir
  Path dir;

  private String write(Report report, WriteOptions options) throws IOException {
    return Files.readString(MarkdownReport.write(report, dir.resolve("report.md"), options));
  }

  /** {@code s} with other counts of leaks the own tenant also held and of responses for review. */
  private static io.kvscope.analysis.impact.Summary summary(io.kvscope.analysis.impact.Summary s, long ownTenantAlsoHeld,
      long review) {
    return new io.kvscope.analysis.impact.Summary(s.leakedResponses(), s.sourceRequests(), s.victimTenants(),
        s.recipientTenants(), s.overLengthAccepted(), s.prefillUnderruns(), s.firstExposure(), s.lastExposure(),
        s.tokensExposed(), s.sameTenantReuse(), s.suspectResponses(), s.sourceRequestsPossible(),
        s.victimTenantsPossible(), ownTenantAlsoHeld, review);
  }

  /** One of the fixture's 3 leaked responses may be its own tenant's data: the report gives the lower end too. */
  @Test
  void aCountThatMayHoldTheRecipientsOwnDataSaysItsLowerEnd() throws IOException {
    Report r = IncidentFixture.incident();
    var s = r.summary();
    var ranged = summary(s, 1, 0);

    String md = write(new Report(r.reportVersion(), r.generatedAt(), r.index(), ranged, r.windows(), r.findings(),
        r.tenants(), r.matrix(), r.timeline(), r.dataCategories(), r.coverage(), r.parameters()), WriteOptions.defaults());

    assertThat(md).contains("| Leaked responses | 3 |")
        .contains("| Of which the recipient's own tenant also held all that leaked (may be its own data) | 1 |")
        .contains("In 1 of them the recipient's own tenant also held")
        .contains("at least 2 carried another tenant's data for sure");
    assertThat(write(r, WriteOptions.defaults())).doesNotContain("carried another tenant's data for sure");
  }

  /** Text shared with one other tenant on a normally served response: its count beside the headline, its list apart. */
  @Test
  void theReviewListIsShownApartFromTheLeaksWithItsCount() throws IOException {
    Report r = IncidentFixture.incident();
    var s = r.summary();
    var withReview = summary(s, s.leakedResponsesOwnTenantAlsoHeld(), 1);
    var match = new io.kvscope.analysis.impact.ReviewMatch("gw-asked-after-a-licence", "hooli", r.generatedAt(),
        "cross_tenant_overlap:gw-asked-after-a-licence", java.util.List.of("acme"), java.util.List.of("gw-asked-bare"), 120);

    String md = write(new Report(r.reportVersion(), r.generatedAt(), r.index(), withReview, r.windows(), r.findings(),
        r.tenants(), r.matrix(), r.timeline(), r.dataCategories(), r.coverage(), r.parameters(), java.util.List.of(match)),
        WriteOptions.defaults());

    assertThat(md).contains("| Leaked responses | 3 |")
        .contains("| For review: text shared with one other tenant, no leak mechanism in the logs (not counted) | 1 |")
        .contains("Text shared with one other tenant, no leak mechanism in the logs: review: 1 response (not counted above")
        .contains("## Text shared with one other tenant, no leak mechanism in the logs: review")
        .contains("| gw-asked-after-a-licence | hooli |");
    assertThat(write(r, WriteOptions.defaults())).contains("## Text shared with one other tenant, no leak mechanism in the logs: review\n\nNone.");
  }

  @Test
  void answersIsItOverFirstAndCoversEverySection() throws IOException {
    String md = write(IncidentFixture.incident(), WriteOptions.defaults());

    assertThat(md.indexOf("## Is it over?")).isLessThan(md.indexOf("## Summary"));
    assertThat(md).contains("**Not over: 2 windows still open.**");
    assertThat(md).contains("Node prefill-b still runs a vulnerable configuration since 2026-09-01T06:00:00Z");
    assertThat(md).contains("Leaked responses are still being served on llama-1m-b since 2026-09-05T09:24:03Z");
    assertThat(md).containsSubsequence("## Summary", "## Vulnerable windows", "### decode-a", "### prefill-a",
        "### prefill-b", "## Exposure windows", "## Tenants", "## Source \u00d7 recipient", "## Data categories",
        "## Coverage", "## Findings", "## Parameters");
    assertThat(md).contains("| Leaked responses | 3 |").contains("| Tokens exposed | 50 |");
    assertThat(md).contains("| 2026-09-01T06:00:00Z | **open** | open | 7,340 | 0.5.19 | engine 0.5.19 \\< fixed 0.5.22 |");
    // prefill-a's release no record told: the window says unknown, and the report says what to add
    assertThat(md).contains("| 31,877 | **unknown** | pool 681280 \\< context 1048576 |")
        .contains("Engine version unknown: no SGLang log line carries it");
    assertThat(md).contains("| northwind | globex | 1 | 21 |");
    assertThat(md).contains("| decode-b | 2026-09-03T02:00:00Z | 2026-09-03T05:00:00Z | 3h 0m |");
    assertThat(md).contains("| min_span_tokens | `12` |");
    // No text source: no content section at all, and nothing of the texts.
    assertThat(md).doesNotContain("## Leaked content");
    for (String secret : IncidentFixture.SECRET_WORDS) {
      assertThat(md).doesNotContain(secret);
    }
  }

  @Test
  void findingsTableShowsTheMostSevereAndSaysHowManyMore() throws IOException {
    Report report = IncidentFixture.incident();
    String md = write(report, WriteOptions.defaults().withTop(3, 12));

    String table = md.substring(md.indexOf("## Findings"), md.indexOf("## Parameters"));
    assertThat(table).containsSubsequence("| 1 | confirmed | canary marker leak |",
        "| 2 | confirmed | cross-tenant text overlap |", "| 3 | confirmed | KV pool below context length |");
    assertThat(table).doesNotContain("| 4 |");
    assertThat(table).contains("\u2026 and " + (report.findings().size() - 3) + " more findings");
  }

  @Test
  void leakedSpansShowHashLengthCategoryAndMaskedShapeByDefault() throws IOException {
    String md = write(IncidentFixture.incident(), WriteOptions.defaults().withText(IncidentFixture.texts()));

    assertThat(md).contains("## Leaked content");
    assertThat(md).contains("| " + IncidentFixture.GX_REQ_1 + " | northwind | ");
    assertThat(md).contains(Redaction.ephemeral().hash(IncidentFixture.NW_SECRET) + " | " + IncidentFixture.NW_SECRET.length()
        + " | email, account_number | `I****** f** J*** D**, [email], a****** [account_number], d**\u2026` |");
    assertThat(md).contains(Redaction.ephemeral().hash(IncidentFixture.CANARY) + " | 19 | canary | `[canary]` |");
    for (String secret : IncidentFixture.SECRET_WORDS) {
      assertThat(md).doesNotContain(secret);
    }
  }

  @Test
  void aLeakFoundInAnotherCopyOfTheReplyNeverShowsTheKeptReplysWordsInItsPlace() throws IOException {
    // The gateway logged a second, harmless reply for globex's request and the index kept it; the leak
    // was found in the other copy, whose offsets the span gives.
    String harmless = "Here is the translation summary. " + "x".repeat(IncidentFixture.NW_SECRET.length())
        + " End of summary.";
    TextSource keptOtherReply = (id, field) -> IncidentFixture.GX_REQ_1.equals(id) && TextSource.RESPONSE.equals(field)
        ? harmless : IncidentFixture.texts().text(id, field);
    for (boolean reveal : new boolean[] {false, true}) {
      String md = write(IncidentFixture.incident(), WriteOptions.defaults().withText(keptOtherReply).withReveal(reveal));
      String row = md.lines().filter(l -> l.startsWith("| " + IncidentFixture.GX_REQ_1 + " | northwind | "))
          .findFirst().orElseThrow();
      assertThat(row).contains("(" + ReportView.ANOTHER_COPY + ")").doesNotContain("xxx").doesNotContain("x**");
      // The other findings' spans are still shown as before.
      assertThat(md).contains(Redaction.ephemeral().hash(IncidentFixture.CANARY) + " | 19 | canary |");
    }
  }

  @Test
  void revealShowsTheLeakedText() throws IOException {
    String md = write(IncidentFixture.incident(), WriteOptions.defaults().withText(IncidentFixture.texts()).withReveal(true));
    assertThat(md).contains("**Revealed**");
    assertThat(md).contains("`" + IncidentFixture.NW_SECRET + "`").contains("`" + IncidentFixture.GX_SECRET + "`");
    // Only leaked spans: text outside them (Meridian is only in globex's own prompt) stays out.
    assertThat(md).doesNotContain("Meridian").doesNotContain("Portugal");
  }

  @Test
  void whenEveryWindowIsClosedItSaysSo() throws IOException {
    Report report = IncidentFixture.incident();
    List<Window> closed = report.windows().stream()
        .map(w -> w.open() ? new Window(w.kind(), w.node(), w.deployment(), w.start(), Instant.parse("2026-09-09T18:00:00Z"),
            w.count(), w.reason(), w.engineVersion()) : w)
        .toList();
    Report over = new Report(report.reportVersion(), report.generatedAt(), report.index(), report.summary(), closed,
        report.findings(), report.tenants(), report.matrix(), report.timeline(), report.dataCategories(), report.coverage(),
        report.parameters());
    String md = write(over, WriteOptions.defaults());
    assertThat(md).contains("**Over: no open windows.**").contains("the last one closed at 2026-09-09T18:00:00Z");
    assertThat(md).doesNotContain("**open**");
  }

  @Test
  void valuesFromLogsCannotBreakTheMarkdown() throws IOException {
    String hostile = "evil|<b>x</b> [link](javascript:1) *bold* https://evil.example www.evil.example a@evil.example\nnext";
    Report report = IncidentFixture.incident(List.of(new Finding("timing_anomaly:h", FindingKind.TIMING_ANOMALY,
        Confidence.SUSPECT, "h-1", null, hostile, Instant.parse("2026-09-01T00:00:00Z"), "n", null, List.of(), Map.of())));
    Report withTenant = new Report(report.reportVersion(), report.generatedAt(), report.index(), report.summary(),
        report.windows(), report.findings(), List.of(IncidentFixture.impact(hostile, 1, 1, 5, 0, 0, 0)), report.matrix(),
        report.timeline(), report.dataCategories(), report.coverage(), report.parameters());
    String md = write(withTenant, WriteOptions.defaults());

    String escaped = "evil\\|\\<b\\>x\\</b\\> \\[link\\](javascript:1) \\*bold\\* https\\://evil.example www\\.evil.example"
        + " a\\@evil.example\u23ce next";
    assertThat(md).contains("| " + escaped + " | 1 | 1 | 5 |");
    assertThat(md).doesNotContain("<b>").doesNotContain("[link](");
    // Every table row still has its cell count.
    String tenantRow = md.lines().filter(l -> l.startsWith("| evil")).findFirst().orElseThrow();
    assertThat(tenantRow.split("(?<!\\\\)\\|", -1)).hasSize(9);
  }
}

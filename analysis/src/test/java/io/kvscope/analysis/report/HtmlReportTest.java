package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvscope.analysis.impact.Report;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

  @TempDir
  Path dir;

  private String write(Report report, WriteOptions options) throws IOException {
    return Files.readString(HtmlReport.write(report, dir.resolve("report.html"), options));
  }

  /** The summary cards give the same sure–possible ranges as the headline and the tenant table. */
  @Test
  void summaryCardsShowSourcesAndVictimsAsRanges() throws Exception {
    Report report = IncidentFixture.incident();
    var s = report.summary();
    assertThat(s.sourceRequestsPossible()).as("the fixture names a candidate source").isGreaterThan(s.sourceRequests());

    String html = write(report, WriteOptions.defaults());

    assertThat(html).contains("<div class=\"label\">Source requests</div><div class=\"value\">" + s.sourceRequests()
        + "\u2013" + s.sourceRequestsPossible() + "</div>");
    String victims = s.victimTenantsPossible() > s.victimTenants()
        ? s.victimTenants() + "\u2013" + s.victimTenantsPossible() : Long.toString(s.victimTenants());
    assertThat(html).contains("<div class=\"label\">Victim tenants</div><div class=\"value\">" + victims + "</div>");
  }

  @Test
  void isOneSelfContainedPageWithEverySection() throws Exception {
    String html = write(IncidentFixture.incident(), WriteOptions.defaults().withText(IncidentFixture.texts()));

    assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
    assertThat(html).contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';");
    for (String id : List.of("status", "summary", "timeline", "vulnerable", "exposure", "tenants", "matrix", "categories",
        "coverage", "findings", "content", "parameters")) {
      assertThat(html).contains("id=\"" + id + "\"");
    }
    assertThat(count(html, "<svg")).isEqualTo(1);
    assertThat(count(html, "<section")).isEqualTo(count(html, "</section>"));
    assertThat(count(html, "<table")).isEqualTo(count(html, "</table>"));
    // Nothing is loaded from anywhere: no URLs, script files, links, imports or external references.
    assertThat(html.toLowerCase()).doesNotContain("http:").doesNotContain("https:").doesNotContain("<script src")
        .doesNotContain("<link").doesNotContain("src=").doesNotContain("href=").doesNotContain("url(")
        .doesNotContain("@import").doesNotContain("<iframe").doesNotContain("<img").doesNotContain("fetch(")
        .doesNotContain("xmlhttprequest");
    // One inline script, and the policy runs exactly it (by its hash), nothing else.
    assertThat(count(html, "<script")).isEqualTo(1);
    String script = html.substring(html.indexOf("<script>") + "<script>".length(), html.indexOf("</script>"));
    String hash = java.util.Base64.getEncoder().encodeToString(java.security.MessageDigest.getInstance("SHA-256")
        .digest(script.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    assertThat(html).contains("script-src 'sha256-" + hash + "'\">").doesNotContain("unsafe-eval")
        .doesNotContain("script-src 'unsafe-inline'");
  }

  /** The fixture's findings plus {@code n} timing suspects on requests of their own, for paging. */
  static Report withManyFindings(int n) {
    List<io.kvscope.model.finding.Finding> extra = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      String id = String.format("chatcmpl-extra%04d", i);
      extra.add(new io.kvscope.model.finding.Finding("timing_anomaly:" + id,
          io.kvscope.model.finding.FindingKind.TIMING_ANOMALY, io.kvscope.model.finding.Confidence.SUSPECT, id,
          id.substring(9), IncidentFixture.HOOLI, IncidentFixture.at(60 + i), "prefill-b", "decode-b", List.of(),
          IncidentFixture.evidence("ttft_ms", 40L + i)));
    }
    return IncidentFixture.incident(extra);
  }

  @Test
  void everyFindingIsARowOfTheTable() throws IOException {
    Report report = withManyFindings(150);
    String html = write(report, WriteOptions.defaults());
    assertThat(report.findings()).hasSize(162);
    assertThat(count(html, "<tr data-confidence=")).isEqualTo(162);
    for (io.kvscope.model.finding.Finding f : report.findings()) {
      if (f.requestId() != null) {
        assertThat(html).contains(">" + f.requestId() + "<");
      }
    }
    assertThat(html).doesNotContain("more finding");
    // Kinds read as words; the ids stay in the data attributes the filter uses.
    assertThat(html).contains(">over-length prompt accepted<").contains("data-kind=\"over_length_accepted\"")
        .doesNotContain(">over_length_accepted<");
  }

  @Test
  void saysWhatSpansAndMasksAre() throws IOException {
    String html = write(IncidentFixture.incident(), WriteOptions.defaults().withText(IncidentFixture.texts()));
    assertThat(html).contains("<th>Response chars</th>").contains("character offsets into the recipient's response");
    int start = IncidentFixture.GX_RESPONSE_1.indexOf(IncidentFixture.NW_SECRET);
    assertThat(html).contains("chars " + start + "\u2013" + (start + IncidentFixture.NW_SECRET.length()) + "<");
    assertThat(html).contains(IncidentFixture.NW_SECRET.length() + " chars hidden, with email")
        .contains("--index " + Html.esc(IncidentFixture.incident().index()) + " --reveal");
  }

  @Test
  void windowsOfOneResponseAndWithoutDeploymentSayWhatTheyAre() throws IOException {
    Report base = IncidentFixture.incident();
    java.time.Instant t = IncidentFixture.at(0);
    List<io.kvscope.analysis.impact.Window> windows = List.of(
        new io.kvscope.analysis.impact.Window(io.kvscope.analysis.impact.Window.Kind.EXPOSURE, "decode-a", null, t, t, 1, null),
        new io.kvscope.analysis.impact.Window(io.kvscope.analysis.impact.Window.Kind.EXPOSURE, "decode-b", null,
            IncidentFixture.at(3000), IncidentFixture.at(3000).plusSeconds(42), 2, null));
    Report report = new Report(base.reportVersion(), base.generatedAt(), base.index(), base.summary(), windows,
        base.findings(), base.tenants(), base.matrix(), base.timeline(), base.dataCategories(), base.coverage(),
        base.parameters());
    String html = write(report, WriteOptions.defaults());
    assertThat(html).contains(">single response<").contains(">42s<").doesNotContain(">0m<")
        .doesNotContain("<th>Deployment</th>");

    // A leaked response whose own finding names its deployment fills the column.
    List<io.kvscope.model.finding.Finding> findings = new java.util.ArrayList<>();
    for (io.kvscope.model.finding.Finding f : base.findings()) {
      if (f.kind() == io.kvscope.model.finding.FindingKind.OVER_LENGTH_ACCEPTED
          && IncidentFixture.GX_REQ_1.equals(f.requestId())) {
        f = f.withEvidence(new io.kvscope.model.finding.Evidence.OverLength(200L, "prefill-a", "chat-1m", 912_004L,
            null, null, null, 681_280L, null, null, false, null, null, null));
      }
      findings.add(f);
    }
    Report named = new Report(report.reportVersion(), report.generatedAt(), report.index(), report.summary(), windows,
        findings, report.tenants(), report.matrix(), report.timeline(), report.dataCategories(), report.coverage(),
        report.parameters());
    String filled = write(named, WriteOptions.defaults());
    assertThat(filled).contains("<th>Deployment</th>").contains("<tr><td>chat-1m</td><td>decode-a</td>")
        .contains("<tr><td>-</td><td>decode-b</td>");
  }

  @Test
  void theHeatMapShowsFullNamesAndListsEveryPairItHasNoRoomFor() throws IOException {
    Report base = IncidentFixture.incident();
    List<io.kvscope.analysis.impact.MatrixCell> cells = new java.util.ArrayList<>();
    int sources = ReportView.HTML_MATRIX_ROWS + 5;
    for (int i = 0; i < sources; i++) {
      cells.add(new io.kvscope.analysis.impact.MatrixCell(String.format("source-tenant-number-%02d", i),
          "a-recipient-with-a-long-name", sources - i, 10L * (sources - i), sources - i));
    }
    Report report = new Report(base.reportVersion(), base.generatedAt(), base.index(), base.summary(), base.windows(),
        base.findings(), base.tenants(), cells, base.timeline(), base.dataCategories(), base.coverage(), base.parameters());
    String html = write(report, WriteOptions.defaults());
    String grid = html.substring(html.indexOf("<table class=\"heat\">"), html.indexOf("</table>", html.indexOf("<table class=\"heat\">")));
    // Labels are whole (they may wrap after a hyphen), never cut with an ellipsis.
    assertThat(grid).contains(">a-<wbr>recipient-<wbr>with-<wbr>a-<wbr>long-<wbr>name</th>").doesNotContain("\u2026");
    assertThat(count(grid, "<tr><th>source-")).isEqualTo(ReportView.HTML_MATRIX_ROWS);
    assertThat(html).contains("5 more sources and 0 more recipients are in the list of every pair below");
    String pairs = html.substring(html.indexOf("<details id=\"matrix-pairs\">"), html.indexOf("</details>"));
    assertThat(pairs).contains("Every pair (" + sources + " pairs)");
    for (io.kvscope.analysis.impact.MatrixCell c : cells) {
      assertThat(pairs).contains(c.sourceTenant().replace("-", "-<wbr>"));
    }
  }

  @Test
  void theSummarySaysWhatItsSameTenantCountCounts() throws IOException {
    String html = write(IncidentFixture.incident(), WriteOptions.defaults());
    long sameTenantFindings = IncidentFixture.incident().findings().stream()
        .filter(f -> f.kind() == io.kvscope.model.finding.FindingKind.SAME_TENANT_REUSE).count();
    assertThat(html).contains("id=\"same-tenant-note\"").contains(Html.esc("responses carried only their own tenant's earlier data"))
        .contains("holds " + sameTenantFindings + " same-tenant finding");
  }

  @Test
  void showsTheOpenWindowsTheTimelineAndTheHeatMap() throws IOException {
    String html = write(IncidentFixture.incident(), WriteOptions.defaults());

    assertThat(html).contains("<section class=\"status open\" id=\"status\">\n<h2>Not over: 2 windows still open</h2>");
    // One lane per node with a vulnerable window, plus the exposure lane; open windows marked.
    for (String node : List.of("decode-a", "prefill-a", "prefill-b")) {
      assertThat(html).contains("class=\"lane\">" + node + "</text>");
    }
    assertThat(html).contains("class=\"lane exposure-lane\">exposure</text>");
    assertThat(count(html, "open \u25b8")).isEqualTo(2);
    // Four bar rows, traffic first; every non-zero hour is a bar with its numbers on hover.
    assertThat(html).contains(">requests</text>").contains(">leaked responses</text>").contains(">over-length accepted</text>")
        .contains(">prefill underruns</text>");
    long nonZeroCells = IncidentFixture.incident().timeline().stream()
        .mapToLong(h -> (h.requests() > 0 ? 1 : 0) + (h.exposures() > 0 ? 1 : 0) + (h.overLengthAccepted() > 0 ? 1 : 0)
            + (h.prefillUnderruns() > 0 ? 1 : 0))
        .sum();
    assertThat(count(html, "<title>2026-")).isEqualTo((int) nonZeroCells);
    // The heat map has a coloured cell for each tenant pair.
    assertThat(count(html, "background:rgba(198,40,40,")).isEqualTo(5);
    assertThat(html).contains("title=\"northwind \u2192 globex: 1 response (1 for sure), 21 tokens\"");
    // Umbrella's and acme's requests were candidates for one passage: a range, not a sure count.
    assertThat(html).contains("title=\"umbrella-corp \u2192 initech: 0\u20131 responses (0 for sure), 0 tokens\"");
  }

  @Test
  void noTextUnlessRevealed() throws IOException {
    String redacted = write(IncidentFixture.incident(), WriteOptions.defaults().withText(IncidentFixture.texts()));
    for (String secret : IncidentFixture.SECRET_WORDS) {
      assertThat(redacted).doesNotContain(secret);
    }
    assertThat(redacted).contains("Masked excerpt").contains("[api_key]");

    String revealed = write(IncidentFixture.incident(), WriteOptions.defaults().withText(IncidentFixture.texts())
        .withReveal(true));
    assertThat(revealed).contains("Revealed:").contains(Html.esc(IncidentFixture.NW_SECRET));
  }

  @Test
  void valuesFromLogsAreEscaped() throws IOException {
    Report report = IncidentFixture.incident();
    String hostile = "<img src=x onerror=alert(1)>";
    Report withTenant = new Report(report.reportVersion(), report.generatedAt(), "\"><script>x</script>", report.summary(),
        report.windows(), report.findings(), List.of(IncidentFixture.impact(hostile, 1, 1, 5, 0, 0, 0)), report.matrix(),
        report.timeline(), report.dataCategories(), report.coverage(), report.parameters());
    String html = write(withTenant, WriteOptions.defaults());
    assertThat(html).doesNotContain(hostile).doesNotContain("<script>x")
        .contains("&lt;img src=x onerror=alert(1)&gt;").contains("&quot;&gt;&lt;script&gt;");
  }

  @Test
  void rendersInHeadlessChromium() throws Exception {
    assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed (apt-get install -y chromium)");
    Path page = HtmlReport.write(IncidentFixture.incident(), dir.resolve("report.html"),
        WriteOptions.defaults().withText(IncidentFixture.texts()));
    Path png = dir.resolve("report.png");
    Process chromium = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + dir.resolve("chromium-profile"), "--screenshot=" + png,
        "--window-size=1280,2000", page.toUri().toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("chromium.log").toFile())
        .start();
    if (!chromium.waitFor(120, TimeUnit.SECONDS)) {
      chromium.destroyForcibly();
      throw new AssertionError("chromium did not finish in 120 s");
    }
    assertThat(png).as("screenshot; chromium said:\n" + Files.readString(dir.resolve("chromium.log"))).isRegularFile();

    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(1280);
    assertThat(image.getHeight()).isEqualTo(2000);
    Set<Integer> colours = new HashSet<>();
    long red = 0;
    long amber = 0;
    long ink = 0;
    for (int y = 0; y < image.getHeight(); y += 2) {
      for (int x = 0; x < image.getWidth(); x += 2) {
        int rgb = image.getRGB(x, y) & 0xffffff;
        colours.add(rgb);
        int r = rgb >> 16 & 0xff;
        int g = rgb >> 8 & 0xff;
        int b = rgb & 0xff;
        if (r > 170 && g < 80 && b < 80) {
          red++; // exposure bars, heat-map cells, the "not over" title
        }
        if (r > 230 && g > 170 && g < 215 && b < 140) {
          amber++; // vulnerable-window lanes
        }
        if (r < 60 && g < 60 && b < 70) {
          ink++; // text
        }
      }
    }
    assertThat(colours.size()).as("distinct colours").isGreaterThan(200);
    assertThat(red).as("red pixels").isGreaterThan(300);
    assertThat(amber).as("amber pixels").isGreaterThan(1000);
    assertThat(ink).as("text pixels").isGreaterThan(2000);
  }

  @Test
  void inChromiumEveryFindingIsReachableBySortFilterAndPage() throws Exception {
    assumeTrue(HeadlessChromium.available(), "chromium is not installed (apt-get install -y chromium)");
    Report report = withManyFindings(150);
    Path page = HtmlReport.write(report, dir.resolve("report.html"), WriteOptions.defaults());
    try (HeadlessChromium browser = HeadlessChromium.open(page, 1280, 800, dir)) {
      String visible = "Array.from(document.querySelectorAll('#findings-table tbody tr')).filter(r => r.offsetParent !== null)";
      assertThat(browser.eval("document.getElementById('findings-controls').hidden").asBoolean()).isFalse();
      assertThat(browser.eval(visible + ".length").asInt()).isEqualTo(50);
      assertThat(browser.eval("document.getElementById('f-status').textContent").asText())
          .isEqualTo("Showing 1\u201350 of 162, page 1 of 4");
      // Paging through reaches every row once.
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (int p = 0; p < 4; p++) {
        browser.eval(visible + ".forEach(r => window.__seen = (window.__seen || []).concat([r.cells[0].textContent]))");
        if (p < 3) {
          browser.eval("document.getElementById('f-next').click()");
        }
      }
      browser.eval("window.__seen").forEach(n -> seen.add(n.asText()));
      assertThat(browser.eval("window.__seen.length").asInt()).isEqualTo(162);
      assertThat(seen).isEqualTo(java.util.stream.IntStream.rangeClosed(1, 162).mapToObj(Integer::toString)
          .collect(java.util.stream.Collectors.toSet()));
      assertThat(browser.eval("document.getElementById('f-next').disabled").asBoolean()).isTrue();
      // A filter by kind shows that kind only, from the first page.
      browser.eval("var k = document.getElementById('f-kind'); k.value = 'over_length_accepted';"
          + " k.dispatchEvent(new Event('change'))");
      long overLength = report.findings().stream()
          .filter(f -> f.kind() == io.kvscope.model.finding.FindingKind.OVER_LENGTH_ACCEPTED).count();
      assertThat(browser.eval(visible + ".length").asInt()).isEqualTo((int) overLength);
      assertThat(browser.eval(visible + ".every(r => r.cells[2].textContent === 'over-length prompt accepted')")
          .asBoolean()).isTrue();
      // Free text finds one request among all pages.
      browser.eval("var k = document.getElementById('f-kind'); k.value = ''; k.dispatchEvent(new Event('change'));"
          + " var t = document.getElementById('f-text'); t.value = 'chatcmpl-extra0149'; t.dispatchEvent(new Event('input'))");
      assertThat(browser.eval(visible + ".map(r => r.cells[3].textContent)").toString())
          .isEqualTo("[\"chatcmpl-extra0149\"]");
      // A click on Tokens sorts ascending, another descending: the largest leak comes first.
      browser.eval("var t = document.getElementById('f-text'); t.value = ''; t.dispatchEvent(new Event('input'))");
      browser.eval("document.querySelector('#findings-table thead th:last-child').click()");
      browser.eval("document.querySelector('#findings-table thead th:last-child').click()");
      long most = report.findings().stream().mapToLong(io.kvscope.model.finding.Finding::matchedTokens).max().orElseThrow();
      assertThat(browser.eval(visible + "[0].cells[8].textContent").asText()).isEqualTo(Long.toString(most));
      assertThat(browser.eval(visible + ".length").asInt()).isEqualTo(50);
    }
  }

  @Test
  void inChromiumAt900PixelsNothingSpillsAndChartTextStaysReadable() throws Exception {
    assumeTrue(HeadlessChromium.available(), "chromium is not installed (apt-get install -y chromium)");
    Report wide = wideFleet();
    Path page = HtmlReport.write(wide, dir.resolve("report.html"), WriteOptions.defaults().withText(IncidentFixture.texts()));
    try (HeadlessChromium browser = HeadlessChromium.open(page, 900, 800, dir)) {
      assertThat(browser.eval("window.innerWidth").asInt()).isEqualTo(900);
      // The page itself never scrolls sideways.
      assertThat(browser.eval("document.documentElement.scrollWidth").asInt()).isLessThanOrEqualTo(900);
      // The tenants table fits inside its card, as do the exposure and parameters tables.
      for (String section : List.of("tenants", "exposure", "parameters", "matrix")) {
        JsonRect table = rect(browser, "#" + section + " table");
        JsonRect card = rect(browser, "#" + section);
        assertThat(table.right()).as(section + " table's right edge").isLessThanOrEqualTo(card.right());
      }
      // Axis and lane labels of the timeline render at close to 10 px or more (font size times the
      // chart's scale: the SVG scales its text with its width).
      double smallest = browser.eval("(function(){var svg = document.querySelector('svg.timeline');"
          + " var scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;"
          + " return Math.min(...Array.from(svg.querySelectorAll('text.axis, text.lane'))"
          + ".map(t => parseFloat(getComputedStyle(t).fontSize) * scale));})()").asDouble();
      assertThat(smallest).as("rendered size of the smallest timeline label, px").isGreaterThanOrEqualTo(9.5);
    }
  }

  /**
   * A phone held upright (390 CSS px): the page never scrolls sideways, the stat cards sit inside
   * it, wide tables scroll inside their own wrappers, and the timeline fits the screen with every
   * bar in view, the traffic row among them (one bar per hour with requests, from the report's
   * hourly counts).
   */
  @Test
  void inChromiumAt390PixelsThePageFitsAndTheTimelineShowsEveryBar() throws Exception {
    assumeTrue(HeadlessChromium.available(), "chromium is not installed (apt-get install -y chromium)");
    Report wide = wideFleet();
    Path page = HtmlReport.write(wide, dir.resolve("report.html"), WriteOptions.defaults().withText(IncidentFixture.texts()));
    long hoursWithTraffic = wide.timeline().stream().filter(h -> h.requests() > 0).count();
    assertThat(hoursWithTraffic).as("the fixture has traffic").isPositive();
    try (HeadlessChromium browser = HeadlessChromium.open(page, 600, 844, dir)) {
      browser.emulateScreen(390, 844);
      // Anything wider than the screen outside a scrolling wrapper, named for the failure message.
      String widest = browser.eval("Array.from(document.querySelectorAll('*')).filter(e => e.getBoundingClientRect().right"
          + " > 391 && !e.closest('.scroll, .chart')).slice(0, 8).map(e => e.tagName + '.' + e.className + '#' + e.id + ' '"
          + " + Math.round(e.getBoundingClientRect().right)).join(', ')").asText();
      assertThat(browser.eval("window.innerWidth").asInt()).as("layout width; wider: " + widest).isEqualTo(390);
      assertThat(browser.eval("document.documentElement.scrollWidth").asInt()).as("page width; wider: " + widest)
          .isLessThanOrEqualTo(390);
      assertThat(browser.eval("Math.max(...Array.from(document.querySelectorAll('.card, section, .scroll, .chart'))"
          + ".map(e => e.getBoundingClientRect().right))").asDouble()).as("rightmost card, section or wrapper")
          .isLessThanOrEqualTo(390);
      // The timeline needs no sideways scroll, and every bar is on screen.
      assertThat(browser.eval("(function(){var c = document.querySelector('.chart'); return c.scrollWidth <= c.clientWidth;})()")
          .asBoolean()).isTrue();
      String bars = "Array.from(document.querySelectorAll('svg.timeline rect')).filter(r => r.querySelector('title'))";
      assertThat(browser.eval(bars + ".length").asInt()).isPositive();
      assertThat(browser.eval(bars + ".every(r => { var b = r.getBoundingClientRect(); return b.left >= 0 && b.right <= 390; })")
          .asBoolean()).as("every bar within the screen").isTrue();
      assertThat(browser.eval(bars + ".filter(r => r.getAttribute('fill') === '" + TimelineChart.TRAFFIC_COLOR + "').length")
          .asInt()).as("traffic bars, one per hour with requests").isEqualTo((int) hoursWithTraffic);
    }
  }

  /** 20 more findings and twelve tenants whose names and counts are as wide as a real fleet's. */
  private static Report wideFleet() {
    Report many = withManyFindings(20);
    List<io.kvscope.analysis.impact.TenantImpact> tenants = new java.util.ArrayList<>();
    for (int i = 0; i < 12; i++) {
      tenants.add(IncidentFixture.impact("stonegate-education-" + i, 1_234_567 + i, 1_234_567, 98_765_432, 1_234_567,
          1_234_567, 98_765_432));
    }
    return new Report(many.reportVersion(), many.generatedAt(), many.index(), many.summary(), many.windows(),
        many.findings(), tenants, many.matrix(), many.timeline(), many.dataCategories(), many.coverage(), many.parameters());
  }

  private record JsonRect(double left, double right) {}

  private static JsonRect rect(HeadlessChromium browser, String selector) throws Exception {
    var r = browser.eval("(function(){var r = document.querySelector('" + selector + "').getBoundingClientRect();"
        + " return {left: r.left, right: r.right};})()");
    return new JsonRect(r.get("left").asDouble(), r.get("right").asDouble());
  }

  private static int count(String haystack, String needle) {
    Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(haystack);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}

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

  @Test
  void isOneSelfContainedPageWithEverySection() throws IOException {
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
    // Nothing is loaded from anywhere: no URLs, scripts, links, imports or external references.
    assertThat(html.toLowerCase()).doesNotContain("http:").doesNotContain("https:").doesNotContain("<script")
        .doesNotContain("<link").doesNotContain("src=").doesNotContain("href=").doesNotContain("url(")
        .doesNotContain("@import").doesNotContain("<iframe").doesNotContain("<img");
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
    // Three bar rows; every non-zero hour is a bar with its numbers on hover.
    assertThat(html).contains(">leaked responses</text>").contains(">over-length accepted</text>")
        .contains(">prefill underruns</text>");
    long nonZeroCells = IncidentFixture.incident().timeline().stream()
        .mapToLong(h -> (h.exposures() > 0 ? 1 : 0) + (h.overLengthAccepted() > 0 ? 1 : 0) + (h.prefillUnderruns() > 0 ? 1 : 0))
        .sum();
    assertThat(count(html, "<title>2026-")).isEqualTo((int) nonZeroCells);
    // The heat map has a coloured cell for each tenant pair.
    assertThat(count(html, "background:rgba(198,40,40,")).isEqualTo(5);
    assertThat(html).contains("title=\"northwind \u2192 globex: 1 responses (1 for sure), 21 tokens\"");
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
    assertThat(html).doesNotContain(hostile).doesNotContain("<script>")
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

  private static int count(String haystack, String needle) {
    Matcher m = Pattern.compile(Pattern.quote(needle)).matcher(haystack);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}

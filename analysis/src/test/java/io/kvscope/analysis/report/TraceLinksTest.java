package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kvscope.analysis.impact.Report;
import io.kvscope.index.doc.Documents;
import io.kvscope.index.IndexSearch;
import io.kvscope.index.store.IndexStore;
import io.kvscope.ingest.record.RequestRecord;
import io.kvscope.model.finding.Finding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceLinksTest {

  private static final String TEMPLATE = "https://langfuse.example.com/project/p1/traces/{trace_id}?display=details";
  /** A LiteLLM trace id is whatever the caller sent: this one tries to end the link and run a script. */
  private static final String HOSTILE = "\"><script>alert(1)</script><a href='javascript:x'>";
  /** {@link #HOSTILE} percent-encoded by hand (RFC 3986: all but letters, digits and -._~). */
  private static final String HOSTILE_ENCODED =
      "%22%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E%3Ca%20href%3D%27javascript%3Ax%27%3E";

  @TempDir
  Path dir;

  @Test
  void theIdIsOnePercentEncodedPathSegment() {
    TraceLinks links = TraceLinks.of(TEMPLATE);
    assertThat(links.url("4bf92f3577b34da6a3ce929d0e0e4736"))
        .isEqualTo("https://langfuse.example.com/project/p1/traces/4bf92f3577b34da6a3ce929d0e0e4736?display=details");
    assertThat(links.url(HOSTILE)).isEqualTo(
        "https://langfuse.example.com/project/p1/traces/" + HOSTILE_ENCODED + "?display=details");
    assertThat(links.url("a/../b?c#d é")).endsWith("/traces/a%2F..%2Fb%3Fc%23d%20%C3%A9?display=details");
    assertThat(links.url(null)).isNull();
    assertThat(TraceLinks.of("  ")).isSameAs(TraceLinks.NONE);
    assertThat(TraceLinks.NONE.url("abc")).isNull();
  }

  @Test
  void aTemplateThatCannotMakeASafeLinkIsRefusedSayingWhy() {
    assertThatThrownBy(() -> TraceLinks.of("https://jaeger.example.com/trace/")).hasMessageContaining("{trace_id}");
    assertThatThrownBy(() -> TraceLinks.of("javascript:alert('{trace_id}')")).hasMessageContaining("https://");
    assertThatThrownBy(() -> TraceLinks.of("https://x.example/{trace_id}\"onmouseover=\"x")).hasMessageContaining("%22");
    assertThatThrownBy(() -> TraceLinks.of("https://x.example/a b/{trace_id}")).hasMessageContaining("spaces");
  }

  @Test
  void theOpenTelemetryTraceIdComesBeforeLiteLlmsOwn() {
    assertThat(TraceLinks.traceIdOf(List.of("litellm_trace_id:lt-1", "span_id:00f067aa0ba902b7", "trace_id:abc")))
        .isEqualTo("abc");
    assertThat(TraceLinks.traceIdOf(List.of("litellm_call_id:c", "litellm_trace_id:lt-1"))).isEqualTo("lt-1");
    assertThat(TraceLinks.traceIdOf(List.of("response_id:r", "trace_id:"))).isNull();
  }

  /**
   * Reports written from a real index: every finding whose request has a trace id links to it, a
   * hostile id stays inside its link in a real browser, and a report without a template has no link.
   */
  @Test
  void reportsLinkFindingsToTheirTracesAndAHostileIdStaysInsideItsLink() throws Exception {
    Report report = IncidentFixture.incident();
    List<String> requests = report.findings().stream().map(Finding::requestId).filter(Objects::nonNull).distinct().toList();
    String hostileRequest = requests.getFirst();
    Map<String, String> traceOf = new LinkedHashMap<>();
    for (String id : IncidentFixture.OWNER.keySet()) {
      traceOf.put(id, id.equals(hostileRequest) ? HOSTILE
          : HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5").digest(id.getBytes())));
    }
    Path index = dir.resolve("index");
    try (IndexStore store = IndexStore.open(index)) {
      long line = 1;
      for (Map.Entry<String, String> owner : IncidentFixture.OWNER.entrySet()) {
        String id = owner.getKey();
        List<String> aliases = new ArrayList<>(List.of("litellm_call_id:call-" + line));
        aliases.add((id.equals(hostileRequest) ? "litellm_trace_id:" : "trace_id:") + traceOf.get(id));
        store.put(Documents.request(RequestRecord.builder(id).tenant(owner.getValue())
            .startTime(IncidentFixture.T0.toEpochMilli()).aliases(aliases)
            .sourceFile("gateway.jsonl").sourceLine(line++).build()));
      }
      store.commit();
    }
    Path out = dir.resolve("out");
    try (IndexSearch search = IndexSearch.open(index)) {
      WriteOptions options = WriteOptions.defaults().withText(new IndexTextSource(search))
          .withFormats(Set.of(Format.HTML, Format.MARKDOWN));
      ReportWriters.writeAll(report, dir.resolve("plain"), options);
      ReportWriters.writeAll(report, out, options.withTraceLinks(TraceLinks.of(TEMPLATE)));
    }
    assertThat(Files.readString(dir.resolve("plain/report.html"))).doesNotContain("href=");
    assertThat(Files.readString(dir.resolve("plain/report.md"))).doesNotContain("[trace]");

    String md = Files.readString(out.resolve("report.md"));
    for (String id : requests) {
      String url = "https://langfuse.example.com/project/p1/traces/"
          + (id.equals(hostileRequest) ? HOSTILE_ENCODED : traceOf.get(id)) + "?display=details";
      assertThat(md).contains(id + " ([trace](<" + url + ">))");
    }
    assertThat(md).doesNotContain("<script>");

    String html = Files.readString(out.resolve("report.html"));
    assertThat(html).doesNotContain("<script>alert").doesNotContain("href='javascript");
    assumeTrue(HeadlessChromium.available(), "chromium is not installed (apt-get install -y chromium)");
    try (HeadlessChromium browser = HeadlessChromium.open(out.resolve("report.html"), 1280, 800, dir)) {
      // Every row of the findings table: its request id, then its link, read from the page as parsed.
      String rows = "Array.from(document.querySelectorAll('#findings-table tbody tr')).map(r => r.cells[3])";
      List<String> ids = new ArrayList<>();
      browser.eval(rows + ".map(c => c.firstChild.textContent.trim())").forEach(n -> ids.add(n.asText()));
      List<String> hrefs = new ArrayList<>();
      browser.eval(rows + ".map(c => { var a = c.querySelector('a.trace'); return a ? a.getAttribute('href') : ''; })")
          .forEach(n -> hrefs.add(n.asText()));
      for (int i = 0; i < ids.size(); i++) {
        String id = ids.get(i);
        String expected = !traceOf.containsKey(id) ? ""
            : "https://langfuse.example.com/project/p1/traces/"
                + (id.equals(hostileRequest) ? HOSTILE_ENCODED : traceOf.get(id)) + "?display=details";
        assertThat(hrefs.get(i)).as("link of %s", id).isEqualTo(expected);
      }
      assertThat(hrefs).contains("https://langfuse.example.com/project/p1/traces/" + HOSTILE_ENCODED + "?display=details");
      assertThat(browser.eval("document.scripts.length").asInt()).as("the report's own script only").isEqualTo(1);
      assertThat(browser.eval("document.querySelectorAll('a').length").asInt())
          .isEqualTo(browser.eval("document.querySelectorAll('a.trace[rel=\"noopener noreferrer\"]').length").asInt());
    }
  }
}

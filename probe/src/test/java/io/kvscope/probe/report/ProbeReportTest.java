package io.kvscope.probe.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.sun.net.httpserver.HttpServer;
import io.kvscope.probe.Endpoint;
import io.kvscope.probe.Probe;
import io.kvscope.probe.ProbeListener;
import io.kvscope.probe.ProbeOptions;
import io.kvscope.probe.ProbeResult;
import io.kvscope.probe.enginedouble.DoubleConfig;
import io.kvscope.probe.enginedouble.EngineDouble;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** probe.json keeps its contract; nothing a server sends reaches a report or a terminal raw. */
class ProbeReportTest {

  private static Schema schema;

  @TempDir
  Path out;

  @BeforeAll
  static void loadSchema() throws IOException {
    String text;
    try (InputStream in = ProbeReportJson.class.getResourceAsStream("probe-report.schema.json")) {
      assertThat(in).as("schema shipped beside the writer").isNotNull();
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(text).isEqualTo(Files.readString(Path.of("..", "docs", "probe-report.schema.json")));
    SchemaRegistryConfig config = SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build();
    schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, b -> b.schemaRegistryConfig(config))
        .getSchema(text, InputFormat.JSON);
  }

  @Test
  void everyKindOfRunWritesAReportThatValidates() throws Exception {
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.BUGGY))) {
      for (String mode : List.of("full", "dry", "config")) {
        ProbeOptions.Builder b = options(d);
        b.dryRun = mode.equals("dry");
        b.configOnly = mode.equals("config");
        b.reveal = mode.equals("full");
        ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);
        Path dir = ProbeReportWriter.write(r, out);
        List<Error> errors = schema.validate(Files.readString(dir.resolve("probe.json")), InputFormat.JSON);
        assertThat(errors).as(mode).isEmpty();
      }
    }
  }

  @Test
  void responsesAreMaskedUnlessRevealed() throws Exception {
    try (EngineDouble d = EngineDouble.start(DoubleConfig.incident(DoubleConfig.Admission.BUGGY))) {
      ProbeResult masked = Probe.run(options(d).build(), ProbeListener.NONE);
      String json = new String(ProbeReportJson.bytes(masked), StandardCharsets.UTF_8);
      assertThat(json).doesNotContain("Codes in view").contains("\"excerpt\"").doesNotContain("\"text\"");
      assertThat(ProbeReportMarkdown.render(masked)).doesNotContain("Codes in view");

      ProbeOptions.Builder b = options(d);
      b.reveal = true;
      String revealed = new String(ProbeReportJson.bytes(Probe.run(b.build(), ProbeListener.NONE)), StandardCharsets.UTF_8);
      assertThat(revealed).contains("Codes in view");
    }
  }

  @Test
  void hostileServerTextIsEscapedEverywhere() throws Exception {
    String nasty = "0.5.21\u001b[2J\u0007<script>alert(1)</script> | **x** \r\nLine2";
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
    s.createContext("/", ex -> {
      String path = ex.getRequestURI().getPath();
      String body;
      int status;
      if (path.equals("/server_info")) {
        status = 200;
        body = "{\"version\":" + json(nasty) + ",\"max_total_num_tokens\":1000,\"page_size\":1,\"model_path\":\"m\","
            + "\"served_model_name\":" + json(nasty) + ",\"disaggregation_mode\":\"null\"}";
      } else if (path.equals("/v1/models")) {
        status = 200;
        body = "{\"data\":[{\"id\":" + json(nasty) + ",\"max_model_len\":2000}]}";
      } else if (path.equals("/v1/chat/completions")) {
        status = 200;
        ex.getResponseHeaders().set("Content-Type", "text/event-stream");
        body = "data: {\"choices\":[{\"delta\":{\"content\":" + json(nasty + " KVCANARY-ZZZZZZZZQQQQQQQQQQQQ") + "}}]}\n\ndata: [DONE]\n\n";
      } else {
        status = 400;
        body = "{\"error\":{\"message\":" + json(nasty) + "}}";
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(status, bytes.length);
      ex.getResponseBody().write(bytes);
      ex.close();
    });
    s.start();
    try {
      ProbeOptions.Builder b = ProbeOptions.builder(java.net.URI.create("http://127.0.0.1:" + s.getAddress().getPort()));
      b.fillRequests = 4;
      b.normalRequests = 1;
      b.ratePerSecond = ProbeOptions.HARD_RATE;
      b.requestTimeout = Duration.ofSeconds(5);
      b.reveal = true;
      ProbeResult r = Probe.run(b.build(), ProbeListener.NONE);
      Path dir = ProbeReportWriter.write(r, out);
      String md = Files.readString(dir.resolve("probe.md"));
      String html = Files.readString(dir.resolve("probe.html"));
      String summary = String.join("\n", ProbeSummary.lines(r));
      for (String text : List.of(md, html, summary)) {
        assertThat(text.chars().filter(c -> Character.isISOControl(c) && c != '\n')).isEmpty();
      }
      assertThat(html).doesNotContain("<script>").contains("&lt;script&gt;");
      assertThat(md).doesNotContain("<script>").contains("\\<script\\>");
      // A marker nobody was given is noted, never counted as a leak.
      assertThat(r.evidence().findings()).noneMatch(f -> f.kind().id().equals("canary_leak"));
      assertThat(r.warnings()).anyMatch(w -> w.contains("KVCANARY-ZZZZZZZZQQQQQQQQQQQQ") && w.contains("not a marker of this run"));
      assertThat(schema.validate(Files.readString(dir.resolve("probe.json")), InputFormat.JSON)).isEmpty();
    } finally {
      s.stop(0);
    }
  }

  private static String json(String s) {
    return com.fasterxml.jackson.databind.node.TextNode.valueOf(s).toString();
  }

  private static ProbeOptions.Builder options(EngineDouble d) {
    ProbeOptions.Builder b = ProbeOptions.builder(d.routerUri());
    b.servers.add(new Endpoint("prefill-0", d.prefillUri()));
    b.servers.add(new Endpoint("decode-0", d.decodeUri()));
    b.fillRequests = 6;
    b.normalRequests = 2;
    b.ratePerSecond = ProbeOptions.HARD_RATE;
    b.requestTimeout = Duration.ofSeconds(20);
    return b;
  }
}

package io.kvscope.analysis.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.analysis.finding.Attribution;
import io.kvscope.analysis.finding.Confidence;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.analysis.finding.Source;
import io.kvscope.analysis.finding.Span;
import io.kvscope.analysis.impact.Coverage;
import io.kvscope.analysis.impact.HourCount;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.impact.Window;
import io.kvscope.ingest.json.PrintableJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * report.json, the versioned machine contract (docs/report.schema.json), written streaming (a report may carry
 * many findings) and read back into the same {@link Report} so that {@code kvscope report} can
 * re-render every other output from it. The JSON Schema is {@code docs/report.schema.json} in the
 * repository and {@link #SCHEMA_RESOURCE} on the classpath.
 *
 * <p>Names are snake_case, timestamps ISO-8601 UTC ({@code 2026-08-27T14:03:12.345Z}), unknown
 * values null. Evidence and parameters follow {@link JsonValues}: written from Long/Double/String
 * /Boolean/List/Map they read back equal.
 */
public final class ReportJson {

  public static final String FILE_NAME = Format.JSON.fileName();
  /** The draft 2020-12 JSON Schema of this file, on the classpath. */
  public static final String SCHEMA_RESOURCE = "/io/kvscope/analysis/report/report.schema.json";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ReportJson() {}

  // ---------------------------------------------------------------- writing

  /** Writes {@code report} to {@code target} atomically, owner-only. */
  public static Path write(Report report, Path target) throws IOException {
    return AtomicFile.write(target, out -> write(report, out));
  }

  /** Streams {@code report} as report.json to {@code out} (left open). */
  public static void write(Report report, OutputStream out) throws IOException {
    if (report.summary() == null) {
      throw new IllegalArgumentException("a report needs a summary to be written");
    }
    try (JsonGenerator g = PrintableJson.configure(MAPPER.getFactory().createGenerator(out))) {
      g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      g.setPrettyPrinter(new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n")));
      g.writeStartObject();
      g.writeStringField("report_version", report.reportVersion());
      time(g, "generated_at", report.generatedAt());
      g.writeStringField("index", report.index());
      summary(g, report.summary());
      g.writeArrayFieldStart("windows");
      for (Window w : report.windows()) {
        window(g, w);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("findings");
      for (Finding f : report.findings()) {
        finding(g, f);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("tenants");
      for (TenantImpact t : report.tenants()) {
        tenant(g, t);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("matrix");
      for (MatrixCell c : report.matrix()) {
        matrixCell(g, c);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("timeline");
      for (HourCount h : report.timeline()) {
        g.writeStartObject();
        time(g, "hour", h.hour());
        g.writeNumberField("exposures", h.exposures());
        g.writeNumberField("over_length_accepted", h.overLengthAccepted());
        g.writeNumberField("prefill_underruns", h.prefillUnderruns());
        g.writeNumberField("requests", h.requests());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeFieldName("data_categories");
      JsonValues.writeSorted(g, report.dataCategories());
      coverage(g, report.coverage());
      g.writeFieldName("parameters");
      JsonValues.writeSorted(g, report.parameters());
      g.writeEndObject();
      g.writeRaw('\n');
    }
  }

  private static void summary(JsonGenerator g, Summary s) throws IOException {
    g.writeObjectFieldStart("summary");
    g.writeNumberField("leaked_responses", s.leakedResponses());
    g.writeNumberField("source_requests", s.sourceRequests());
    g.writeNumberField("source_requests_possible", s.sourceRequestsPossible());
    g.writeNumberField("victim_tenants", s.victimTenants());
    g.writeNumberField("victim_tenants_possible", s.victimTenantsPossible());
    g.writeNumberField("recipient_tenants", s.recipientTenants());
    g.writeNumberField("over_length_accepted", s.overLengthAccepted());
    g.writeNumberField("prefill_underruns", s.prefillUnderruns());
    time(g, "first_exposure", s.firstExposure());
    time(g, "last_exposure", s.lastExposure());
    g.writeNumberField("tokens_exposed", s.tokensExposed());
    g.writeNumberField("same_tenant_reuse", s.sameTenantReuse());
    g.writeNumberField("suspect_responses", s.suspectResponses());
    g.writeEndObject();
  }

  private static void window(JsonGenerator g, Window w) throws IOException {
    g.writeStartObject();
    g.writeStringField("kind", w.kind().id());
    g.writeStringField("node", w.node());
    g.writeStringField("deployment", w.deployment());
    time(g, "start", w.start());
    time(g, "end", w.end());
    g.writeNumberField("count", w.count());
    g.writeStringField("reason", w.reason());
    g.writeStringField("engine_version", w.engineVersion());
    g.writeEndObject();
  }

  /** One source x recipient cell, as in report.json's {@code matrix[]}. */
  public static void matrixCell(JsonGenerator g, MatrixCell c) throws IOException {
    g.writeStartObject();
    g.writeStringField("source_tenant", c.sourceTenant());
    g.writeStringField("recipient_tenant", c.recipientTenant());
    g.writeNumberField("responses", c.responses());
    g.writeNumberField("responses_possible", c.responsesPossible());
    g.writeNumberField("tokens", c.tokens());
    g.writeEndObject();
  }

  /** One finding, as in report.json's {@code findings[]}; exports of a selection reuse it. */
  public static void finding(JsonGenerator g, Finding f) throws IOException {
    g.writeStartObject();
    g.writeStringField("id", f.id());
    g.writeStringField("kind", f.kind().id());
    g.writeStringField("confidence", f.confidence().id());
    g.writeStringField("request_id", f.requestId());
    g.writeStringField("engine_rid", f.engineRid());
    g.writeStringField("tenant", f.tenant());
    time(g, "time", f.time());
    g.writeStringField("node", f.node());
    g.writeStringField("decode_node", f.decodeNode());
    g.writeArrayFieldStart("sources");
    for (Source s : f.sources()) {
      g.writeStartObject();
      g.writeStringField("request_id", s.requestId());
      g.writeStringField("engine_rid", s.engineRid());
      g.writeStringField("tenant", s.tenant());
      g.writeNumberField("matched_tokens", s.matchedTokens());
      g.writeStringField("attribution", s.attribution().id());
      g.writeArrayFieldStart("spans");
      for (Span span : s.spans()) {
        g.writeStartObject();
        g.writeNumberField("response_start", span.responseStart());
        g.writeNumberField("response_end", span.responseEnd());
        g.writeStringField("source_field", span.sourceField());
        g.writeNumberField("source_start", span.sourceStart());
        g.writeNumberField("source_end", span.sourceEnd());
        g.writeNumberField("tokens", span.tokens());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeFieldName("evidence");
    JsonValues.write(g, f.evidence());
    g.writeEndObject();
  }

  /** One tenant's impact, as in report.json's {@code tenants[]}. */
  public static void tenant(JsonGenerator g, TenantImpact t) throws IOException {
    g.writeStartObject();
    g.writeStringField("tenant", t.tenant());
    g.writeObjectFieldStart("as_victim");
    g.writeNumberField("requests", t.asVictim().requests());
    g.writeNumberField("requests_possible", t.asVictim().requestsPossible());
    g.writeNumberField("recipients", t.asVictim().recipients());
    g.writeNumberField("recipients_possible", t.asVictim().recipientsPossible());
    g.writeNumberField("tokens", t.asVictim().tokens());
    g.writeNumberField("tokens_possible", t.asVictim().tokensPossible());
    g.writeEndObject();
    g.writeObjectFieldStart("as_recipient");
    g.writeNumberField("responses", t.asRecipient().responses());
    g.writeNumberField("sources", t.asRecipient().sources());
    g.writeNumberField("sources_possible", t.asRecipient().sourcesPossible());
    g.writeNumberField("tokens", t.asRecipient().tokens());
    g.writeEndObject();
    g.writeEndObject();
  }

  private static void coverage(JsonGenerator g, Coverage c) throws IOException {
    if (c == null) {
      g.writeNullField("coverage");
      return;
    }
    g.writeObjectFieldStart("coverage");
    g.writeArrayFieldStart("gaps");
    for (Coverage.Gap gap : c.gaps()) {
      g.writeStartObject();
      g.writeStringField("node", gap.node());
      time(g, "start", gap.start());
      time(g, "end", gap.end());
      g.writeStringField("reason", gap.reason());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeNumberField("requests", c.requests());
    g.writeNumberField("requests_without_bodies", c.requestsWithoutBodies());
    g.writeNumberField("requests_without_engine_logs", c.requestsWithoutEngineLogs());
    g.writeEndObject();
  }

  private static void time(JsonGenerator g, String field, Instant time) throws IOException {
    g.writeStringField(field, time == null ? null : time.toString());
  }

  // ---------------------------------------------------------------- reading

  /** Reads a report.json written by {@link #write} (any 1.x version) back into a {@link Report}. */
  public static Report read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return read(in, file.toString());
    }
  }

  /** Reads report.json from {@code in}; {@code name} is used in error messages. */
  public static Report read(InputStream in, String name) throws IOException {
    try {
      return parse(in, name);
    } catch (IllegalArgumentException | DateTimeParseException | NullPointerException e) {
      // A bad enum spelling, timestamp or missing id: say which file, not a bare stack trace.
      throw new IOException(name + " is not a valid kvscope report.json: " + e.getMessage(), e);
    }
  }

  private static Report parse(InputStream in, String name) throws IOException {
    try (JsonParser p = MAPPER.getFactory().createParser(in)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException(name + " is not a kvscope report.json: it does not start with a JSON object");
      }
      Reading r = new Reading();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        p.nextToken();
        switch (field) {
          case "report_version" -> r.version = checkVersion(p.getValueAsString(), name);
          case "generated_at" -> r.generatedAt = instant(p.getValueAsString());
          case "index" -> r.index = p.currentToken() == JsonToken.VALUE_NULL ? null : p.getValueAsString();
          case "summary" -> r.summary = summary(object(tree(p), "summary", name));
          case "windows" -> eachElement(p, node -> r.windows.add(window(node)));
          case "findings" -> eachElement(p, node -> r.findings.add(finding(node)));
          case "tenants" -> eachElement(p, node -> r.tenants.add(tenant(node)));
          case "matrix" -> eachElement(p, node -> r.matrix.add(new MatrixCell(
              text(node, "source_tenant"), text(node, "recipient_tenant"),
              node.path("responses").asLong(), node.path("tokens").asLong(),
              node.path("responses_possible").asLong(node.path("responses").asLong()))));
          case "timeline" -> eachElement(p, node -> r.timeline.add(new HourCount(
              instant(text(node, "hour")), node.path("exposures").asLong(),
              node.path("over_length_accepted").asLong(), node.path("prefill_underruns").asLong(),
              node.path("requests").asLong())));
          case "data_categories" -> tree(p).properties()
              .forEach(e -> r.dataCategories.put(e.getKey(), e.getValue().asLong()));
          case "coverage" -> r.coverage = coverage(tree(p));
          case "parameters" -> JsonValues.readObject(tree(p)).forEach((key, value) -> {
            if (value != null) {
              r.parameters.put(key, value);
            }
          });
          default -> p.skipChildren(); // a newer 1.x writer's extra field
        }
      }
      if (r.version == null || r.summary == null) {
        throw new IOException(name + " is not a kvscope report.json: it has no "
            + (r.version == null ? "report_version" : "summary"));
      }
      return new Report(r.version, r.generatedAt, r.index, r.summary, r.windows, r.findings, r.tenants,
          r.matrix, r.timeline, r.dataCategories, r.coverage, r.parameters);
    }
  }

  /** What has been read so far. */
  private static final class Reading {
    String version;
    Instant generatedAt;
    String index;
    Summary summary;
    Coverage coverage;
    final List<Window> windows = new ArrayList<>();
    final List<Finding> findings = new ArrayList<>();
    final List<TenantImpact> tenants = new ArrayList<>();
    final List<MatrixCell> matrix = new ArrayList<>();
    final List<HourCount> timeline = new ArrayList<>();
    final Map<String, Long> dataCategories = new TreeMap<>();
    final Map<String, Object> parameters = new LinkedHashMap<>();
  }

  @FunctionalInterface
  private interface NodeConsumer {
    void accept(JsonNode node) throws IOException;
  }

  /** One array element at a time, so a large findings array is never one tree in memory. */
  private static void eachElement(JsonParser p, NodeConsumer consumer) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return;
    }
    if (p.currentToken() != JsonToken.START_ARRAY) {
      throw new IOException("expected an array at '" + p.currentName() + "', line " + p.currentLocation().getLineNr());
    }
    while (p.nextToken() != JsonToken.END_ARRAY) {
      consumer.accept(tree(p));
    }
  }

  private static JsonNode object(JsonNode node, String field, String name) throws IOException {
    if (!node.isObject()) {
      throw new IOException(name + " is not a valid kvscope report.json: '" + field + "' is not an object");
    }
    return node;
  }

  private static JsonNode tree(JsonParser p) throws IOException {
    return MAPPER.readTree(p);
  }

  private static String checkVersion(String version, String name) throws IOException {
    String major = Report.REPORT_VERSION.substring(0, Report.REPORT_VERSION.indexOf('.') + 1);
    if (version == null || !version.startsWith(major)) {
      throw new IOException(name + " has report_version " + version + "; this kvscope reads "
          + major + "x (re-run 'kvscope analyze' with this version to regenerate it)");
    }
    return version;
  }

  private static Summary summary(JsonNode s) {
    return new Summary(
        s.path("leaked_responses").asLong(), s.path("source_requests").asLong(),
        s.path("victim_tenants").asLong(), s.path("recipient_tenants").asLong(),
        s.path("over_length_accepted").asLong(), s.path("prefill_underruns").asLong(),
        instant(text(s, "first_exposure")), instant(text(s, "last_exposure")),
        s.path("tokens_exposed").asLong(), s.path("same_tenant_reuse").asLong(),
        s.path("suspect_responses").asLong(),
        // Reports before 1.1 named every source as certain.
        s.path("source_requests_possible").asLong(s.path("source_requests").asLong()),
        s.path("victim_tenants_possible").asLong(s.path("victim_tenants").asLong()));
  }

  private static Window window(JsonNode w) {
    return new Window(
        Window.Kind.valueOf(text(w, "kind").toUpperCase(Locale.ROOT)),
        text(w, "node"), text(w, "deployment"),
        instant(text(w, "start")), instant(text(w, "end")),
        w.path("count").asLong(), text(w, "reason"), text(w, "engine_version"));
  }

  private static Finding finding(JsonNode f) {
    List<Source> sources = new ArrayList<>();
    for (JsonNode s : f.path("sources")) {
      List<Span> spans = new ArrayList<>();
      for (JsonNode span : s.path("spans")) {
        spans.add(new Span(span.path("response_start").asInt(), span.path("response_end").asInt(),
            text(span, "source_field"), span.path("source_start").asInt(), span.path("source_end").asInt(),
            span.path("tokens").asInt()));
      }
      String attribution = text(s, "attribution");
      sources.add(new Source(text(s, "request_id"), text(s, "engine_rid"), text(s, "tenant"),
          s.path("matched_tokens").asLong(), spans,
          attribution == null ? Attribution.SOLE : Attribution.fromId(attribution))); // before 1.1: named as certain
    }
    return new Finding(
        text(f, "id"), FindingKind.fromId(text(f, "kind")), Confidence.fromId(text(f, "confidence")),
        text(f, "request_id"), text(f, "engine_rid"), text(f, "tenant"), instant(text(f, "time")),
        text(f, "node"), text(f, "decode_node"), sources, JsonValues.readObject(f.path("evidence")));
  }

  private static TenantImpact tenant(JsonNode t) {
    JsonNode v = t.path("as_victim");
    JsonNode r = t.path("as_recipient");
    return new TenantImpact(text(t, "tenant"),
        new TenantImpact.AsVictim(v.path("requests").asLong(), v.path("recipients").asLong(), v.path("tokens").asLong(),
            v.path("requests_possible").asLong(v.path("requests").asLong()),
            v.path("recipients_possible").asLong(v.path("recipients").asLong()),
            v.path("tokens_possible").asLong(v.path("tokens").asLong())),
        new TenantImpact.AsRecipient(r.path("responses").asLong(), r.path("sources").asLong(), r.path("tokens").asLong(),
            r.path("sources_possible").asLong(r.path("sources").asLong())));
  }

  private static Coverage coverage(JsonNode c) {
    if (c == null || c.isNull()) {
      return null;
    }
    List<Coverage.Gap> gaps = new ArrayList<>();
    for (JsonNode gap : c.path("gaps")) {
      gaps.add(new Coverage.Gap(text(gap, "node"), instant(text(gap, "start")), instant(text(gap, "end")),
          text(gap, "reason")));
    }
    return new Coverage(gaps, c.path("requests").asLong(), c.path("requests_without_bodies").asLong(),
        c.path("requests_without_engine_logs").asLong());
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static Instant instant(String iso) {
    return iso == null ? null : Instant.parse(iso);
  }
}

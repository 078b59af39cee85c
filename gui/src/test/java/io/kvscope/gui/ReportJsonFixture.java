package io.kvscope.gui;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.Source;
import io.kvscope.analysis.finding.Span;
import io.kvscope.analysis.impact.Coverage;
import io.kvscope.analysis.impact.HourCount;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.impact.Window;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Writes a {@link Report} as report.json the way SPEC.md lays it out (snake_case names, ISO times),
 * for the reader's round-trip test and the screenshot demo. The real writer lives with the report
 * writers; this one only has to produce the documented shape.
 */
public final class ReportJsonFixture {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ReportJsonFixture() {}

  public static void write(Report r, Path file) throws IOException {
    try (Writer out = Files.newBufferedWriter(file); JsonGenerator g = JSON.getFactory().createGenerator(out)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeStringField("report_version", r.reportVersion());
      time(g, "generated_at", r.generatedAt());
      g.writeStringField("index", r.index());
      Summary s = r.summary();
      g.writeObjectFieldStart("summary");
      g.writeNumberField("leaked_responses", s.leakedResponses());
      g.writeNumberField("source_requests", s.sourceRequests());
      g.writeNumberField("victim_tenants", s.victimTenants());
      g.writeNumberField("recipient_tenants", s.recipientTenants());
      g.writeNumberField("over_length_accepted", s.overLengthAccepted());
      g.writeNumberField("prefill_underruns", s.prefillUnderruns());
      time(g, "first_exposure", s.firstExposure());
      time(g, "last_exposure", s.lastExposure());
      g.writeNumberField("tokens_exposed", s.tokensExposed());
      g.writeNumberField("same_tenant_reuse", s.sameTenantReuse());
      g.writeNumberField("suspect_responses", s.suspectResponses());
      g.writeEndObject();
      g.writeArrayFieldStart("windows");
      for (Window w : r.windows()) {
        g.writeStartObject();
        g.writeStringField("kind", w.kind().id());
        g.writeStringField("node", w.node());
        g.writeStringField("deployment", w.deployment());
        time(g, "start", w.start());
        time(g, "end", w.end());
        g.writeNumberField("count", w.count());
        g.writeStringField("reason", w.reason());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("findings");
      for (Finding f : r.findings()) {
        finding(g, f);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("tenants");
      for (TenantImpact t : r.tenants()) {
        g.writeStartObject();
        g.writeStringField("tenant", t.tenant());
        g.writeObjectFieldStart("as_victim");
        g.writeNumberField("requests", t.asVictim().requests());
        g.writeNumberField("recipients", t.asVictim().recipients());
        g.writeNumberField("tokens", t.asVictim().tokens());
        g.writeEndObject();
        g.writeObjectFieldStart("as_recipient");
        g.writeNumberField("responses", t.asRecipient().responses());
        g.writeNumberField("sources", t.asRecipient().sources());
        g.writeNumberField("tokens", t.asRecipient().tokens());
        g.writeEndObject();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("matrix");
      for (MatrixCell c : r.matrix()) {
        g.writeStartObject();
        g.writeStringField("source_tenant", c.sourceTenant());
        g.writeStringField("recipient_tenant", c.recipientTenant());
        g.writeNumberField("responses", c.responses());
        g.writeNumberField("tokens", c.tokens());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("timeline");
      for (HourCount h : r.timeline()) {
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
      JSON.writeValue(g, r.dataCategories());
      Coverage c = r.coverage();
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
      g.writeFieldName("parameters");
      JSON.writeValue(g, r.parameters());
      g.writeEndObject();
    }
  }

  private static void finding(JsonGenerator g, Finding f) throws IOException {
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
      g.writeArrayFieldStart("spans");
      for (Span sp : s.spans()) {
        g.writeStartObject();
        g.writeNumberField("response_start", sp.responseStart());
        g.writeNumberField("response_end", sp.responseEnd());
        g.writeStringField("source_field", sp.sourceField());
        g.writeNumberField("source_start", sp.sourceStart());
        g.writeNumberField("source_end", sp.sourceEnd());
        g.writeNumberField("tokens", sp.tokens());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeFieldName("evidence");
    JSON.writeValue(g, f.evidence());
    g.writeEndObject();
  }

  private static void time(JsonGenerator g, String field, Instant t) throws IOException {
    if (t == null) {
      g.writeNullField(field);
    } else {
      g.writeStringField(field, t.toString());
    }
  }
}

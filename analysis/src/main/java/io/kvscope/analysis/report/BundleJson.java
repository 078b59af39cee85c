package io.kvscope.analysis.report;

import io.kvscope.ingest.KvscopeOutputs;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.report.TenantBundles.Bundle;
import io.kvscope.analysis.report.TenantBundles.Mishandled;
import io.kvscope.analysis.report.TenantBundles.Range;
import io.kvscope.analysis.report.TenantBundles.RecipientResponse;
import io.kvscope.analysis.report.TenantBundles.VictimRequest;
import io.kvscope.ingest.json.PrintableJson;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/** A tenant's bundle as {@code notification.json}: the notice's facts for the customer's tools, kind ids kept. */
final class BundleJson {

  private BundleJson() {}


  static void write(Bundle b, Report report, java.io.OutputStream out) throws IOException {
    try (JsonGenerator g = PrintableJson.configure(new JsonFactory().createGenerator(out))) {
      g.setPrettyPrinter(new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n")));
      g.writeStartObject();
      g.writeStringField(KvscopeOutputs.REPORT_VERSION_FIELD, report.reportVersion());
      g.writeStringField("generated_at", report.generatedAt() == null ? null : report.generatedAt().toString());
      g.writeStringField("tenant", b.tenant());
      g.writeObjectFieldStart("summary");
      // The report's own figures for this tenant, so a notice never says other numbers than report.html.
      TenantImpact t = TenantBundles.impact(report, b.tenant());
      g.writeNumberField("requests_exposed", t.asVictim().requests());
      g.writeNumberField("requests_possibly_exposed", t.asVictim().requestsPossible() - t.asVictim().requests());
      g.writeNumberField("responses_that_carried_them", t.asVictim().recipients());
      g.writeNumberField("responses_that_possibly_carried_them", t.asVictim().recipientsPossible() - t.asVictim().recipients());
      g.writeNumberField("tokens_exposed", t.asVictim().tokens());
      g.writeNumberField("tokens_possibly_exposed", t.asVictim().tokensPossible() - t.asVictim().tokens());
      g.writeNumberField("responses_with_foreign_data", t.asRecipient().responses());
      g.writeNumberField("foreign_tokens_received", t.asRecipient().tokens());
      g.writeNumberField("mishandled_requests", b.affected().size()
          + b.asRecipient().values().stream().filter(r -> r.kinds.stream().anyMatch(TenantBundles::isMishandling)).count());
      g.writeEndObject();
      g.writeArrayFieldStart("as_victim");
      for (VictimRequest v : b.asVictim().values()) {
        g.writeStartObject();
        g.writeStringField("request_id", v.requestId);
        g.writeStringField("engine_rid", v.engineRid);
        g.writeStringField("first_exposed", iso(v.firstExposed));
        g.writeStringField("last_exposed", iso(v.lastExposed));
        g.writeNumberField("responses", v.responses());
        g.writeNumberField("tokens", v.tokens());
        g.writeStringField("confidence", v.confidence.id());
        g.writeStringField("exposure", v.certain ? "certain" : v.sole ? "probable" : "possible");
        strings(g, "kinds", ids(v.kinds));
        strings(g, "categories", v.categories);
        strings(g, "categories_possible", v.categoriesPossible);
        ranges(g, "ranges", TenantBundles.merge(v.ranges));
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("as_recipient");
      for (RecipientResponse r : b.asRecipient().values()) {
        g.writeStartObject();
        g.writeStringField("request_id", r.requestId);
        g.writeStringField("engine_rid", r.engineRid);
        g.writeStringField("time", iso(r.time));
        strings(g, "kinds", ids(r.kinds));
        strings(g, "categories", r.categories);
        g.writeStringField("confidence", r.confidence.id());
        g.writeNumberField("tokens", r.tokens());
        g.writeNumberField("sources", r.tokensBySource.size());
        ranges(g, "ranges", TenantBundles.merge(r.ranges));
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("mishandled_requests");
      for (Mishandled m : b.affected().values()) {
        g.writeStartObject();
        g.writeStringField("request_id", m.requestId);
        g.writeStringField("engine_rid", m.engineRid);
        g.writeStringField("time", iso(m.time));
        strings(g, "kinds", ids(m.kinds));
        g.writeStringField("confidence", m.confidence.id());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
      g.writeRaw('\n');
    }
  }

  private static List<String> ids(java.util.Collection<FindingKind> kinds) {
    return kinds.stream().map(FindingKind::id).toList();
  }

  private static void strings(JsonGenerator g, String name, Iterable<String> values) throws IOException {
    g.writeArrayFieldStart(name);
    for (String value : values) {
      g.writeString(value);
    }
    g.writeEndArray();
  }

  private static void ranges(JsonGenerator g, String name, List<Range> ranges) throws IOException {
    g.writeArrayFieldStart(name);
    for (Range r : ranges) {
      g.writeStartObject();
      g.writeStringField("field", r.field());
      g.writeNumberField("start", r.start());
      g.writeNumberField("end", r.end());
      g.writeStringField("copy", r.copy());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private static String iso(Instant t) {
    return t == null ? null : t.toString();
  }
}

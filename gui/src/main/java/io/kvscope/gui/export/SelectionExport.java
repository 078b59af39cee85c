package io.kvscope.gui.export;

import io.kvscope.analysis.report.ReportJson;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.Source;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.gui.model.FindingFilter;
import io.kvscope.gui.model.Impact;
import io.kvscope.index.OwnerOnly;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The current selection as CSV (findings, or tenant counts) or JSON (the filter, the findings and
 * the tenant counts and matrix for them). Column and field names follow report.json.
 */
public final class SelectionExport {

  private static final ObjectMapper JSON = new ObjectMapper();

  private SelectionExport() {}

  public static String findingsCsv(List<Finding> findings) {
    StringBuilder out = new StringBuilder(
        "id,kind,confidence,request_id,engine_rid,tenant,time,node,decode_node,source_tenants,source_requests,matched_tokens\n");
    for (Finding f : findings) {
      row(out, f.id(), f.kind().id(), f.confidence().id(), f.requestId(), f.engineRid(), f.tenant(),
          f.time() == null ? null : f.time().toString(), f.node(), f.decodeNode(),
          f.sources().stream().map(Source::tenant).distinct().map(String::valueOf).collect(Collectors.joining(";")),
          f.sources().stream().map(Source::requestId).collect(Collectors.joining(";")),
          Long.toString(f.matchedTokens()));
    }
    return out.toString();
  }

  public static String tenantsCsv(List<TenantImpact> tenants) {
    StringBuilder out = new StringBuilder("tenant,victim_requests,victim_requests_possible,victim_recipients,"
        + "victim_recipients_possible,victim_tokens,victim_tokens_possible,recipient_responses,recipient_sources,"
        + "recipient_sources_possible,recipient_tokens\n");
    for (TenantImpact t : tenants) {
      row(out, t.tenant(), n(t.asVictim().requests()), n(t.asVictim().requestsPossible()),
          n(t.asVictim().recipients()), n(t.asVictim().recipientsPossible()), n(t.asVictim().tokens()),
          n(t.asVictim().tokensPossible()), n(t.asRecipient().responses()), n(t.asRecipient().sources()),
          n(t.asRecipient().sourcesPossible()), n(t.asRecipient().tokens()));
    }
    return out.toString();
  }

  public static String json(FindingFilter filter, List<Finding> findings, Impact impact) throws IOException {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = JSON.getFactory().createGenerator(text)) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      writeFilter(g, filter);
      g.writeArrayFieldStart("findings");
      for (Finding f : findings) {
        ReportJson.finding(g, f);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("tenants");
      for (TenantImpact t : impact.tenants()) {
        ReportJson.tenant(g, t);
      }
      g.writeEndArray();
      g.writeArrayFieldStart("matrix");
      for (MatrixCell c : impact.matrix()) {
        ReportJson.matrixCell(g, c);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    return text.toString();
  }

  private static void writeFilter(JsonGenerator g, FindingFilter f) throws IOException {
    g.writeObjectFieldStart("filter");
    g.writeStringField("kind", f.kind() == null ? null : f.kind().id());
    g.writeStringField("confidence", f.confidence() == null ? null : f.confidence().id());
    g.writeStringField("tenant", f.tenant());
    g.writeStringField("node", f.node());
    g.writeStringField("from", f.range() == null ? null : f.range().start().toString());
    g.writeStringField("to", f.range() == null ? null : f.range().end().toString());
    g.writeStringField("query", f.searchQuery());
    g.writeEndObject();
  }

  /** Writes {@code content} atomically and owner-only (exports name customers and requests). */
  public static void write(Path file, String content) throws IOException {
    OwnerOnly.writeAtomically(file, content.getBytes(StandardCharsets.UTF_8));
  }

  private static String n(long value) {
    return Long.toString(value);
  }

  private static void row(StringBuilder out, String... cells) {
    for (int i = 0; i < cells.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(csv(cells[i]));
    }
    out.append('\n');
  }

  /** RFC 4180 quoting; a leading formula character is defused so a spreadsheet shows it as text. */
  static String csv(String value) {
    if (value == null) {
      return "";
    }
    String v = !value.isEmpty() && "=+-@".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
    if (v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) {
      return '"' + v.replace("\"", "\"\"") + '"';
    }
    return v;
  }
}

package io.kvscope.gui.export;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.Source;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.report.CsvCell;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.gui.model.FindingFilter;
import io.kvscope.gui.model.Impact;
import io.kvscope.index.store.OwnerOnly;
import io.kvscope.ingest.KvscopeOutputs;
import io.kvscope.ingest.json.PrintableJson;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

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
      row(out, CsvCell.of(f.id()), CsvCell.of(f.kind().id()), CsvCell.of(f.confidence().id()),
          CsvCell.of(f.requestId()), CsvCell.of(f.engineRid()), CsvCell.of(f.tenant()),
          CsvCell.of(f.time() == null ? null : f.time().toString()), CsvCell.of(f.node()), CsvCell.of(f.decodeNode()),
          CsvCell.list(f.sources().stream().map(Source::tenant).distinct().map(String::valueOf).toList()),
          CsvCell.list(f.sources().stream().map(Source::requestId).toList()),
          n(f.matchedTokens()));
    }
    return out.toString();
  }

  public static String tenantsCsv(List<TenantImpact> tenants) {
    StringBuilder out = new StringBuilder("tenant,victim_requests,victim_requests_possible,victim_recipients,"
        + "victim_recipients_possible,victim_tokens,victim_tokens_possible,recipient_responses,recipient_sources,"
        + "recipient_sources_possible,recipient_tokens\n");
    for (TenantImpact t : tenants) {
      row(out, CsvCell.of(t.tenant()), n(t.asVictim().requests()), n(t.asVictim().requestsPossible()),
          n(t.asVictim().recipients()), n(t.asVictim().recipientsPossible()), n(t.asVictim().tokens()),
          n(t.asVictim().tokensPossible()), n(t.asRecipient().responses()), n(t.asRecipient().sources()),
          n(t.asRecipient().sourcesPossible()), n(t.asRecipient().tokens()));
    }
    return out.toString();
  }

  public static String json(FindingFilter filter, List<Finding> findings, Impact impact) throws IOException {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = PrintableJson.configure(JSON.getFactory().createGenerator(text))) {
      g.useDefaultPrettyPrinter();
      g.writeStartObject();
      g.writeStringField(KvscopeOutputs.EXPORT_FIELD, "selection"); // an ingest skips what starts with it
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

  /** One row of cells already made by {@link CsvCell} (numbers need none). */
  private static void row(StringBuilder out, String... cells) {
    out.append(String.join(",", cells)).append('\n');
  }
}

package io.kvscope.analysis.report;

import io.kvscope.ingest.KvscopeOutputs;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DatabindException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.ingest.json.PrintableJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.util.Map;

/**
 * report.json, the versioned machine contract (docs/report.schema.json), written streaming (a report may carry
 * many findings: they go to the generator one by one, no tree of the file is built) and read back
 * into the same {@link Report} so that {@code kvscope report} can re-render every other output
 * from it. The JSON Schema is {@code docs/report.schema.json} in the repository and
 * {@link #SCHEMA_RESOURCE} on the classpath; {@link ReportMapping} says how the records map to it.
 *
 * <p>Names are snake_case, timestamps ISO-8601 UTC ({@code 2026-08-27T14:03:12.345Z}), unknown
 * values null. Evidence and parameters follow {@link JsonValues}: written from Long/Double/String
 * /Boolean/List/Map they read back equal.
 */
public final class ReportJson {

  public static final String FILE_NAME = Format.JSON.fileName();
  /** The draft 2020-12 JSON Schema of this file, on the classpath. */
  public static final String SCHEMA_RESOURCE = "/io/kvscope/analysis/report/report.schema.json";

  private static final ObjectMapper MAPPER = ReportMapping.MAPPER;

  private ReportJson() {}

  // ---------------------------------------------------------------- writing

  /** Writes {@code report} to {@code target} atomically, owner-only. */
  public static Path write(Report report, Path target) throws IOException {
    return write(report, target, new RenderedEvidence());
  }

  /** As {@link #write(Report, Path)}, with the findings' evidence other files of the run render too. */
  static Path write(Report report, Path target, RenderedEvidence evidence) throws IOException {
    return AtomicFile.write(target, out -> write(report, out, evidence));
  }

  /** Streams {@code report} as report.json to {@code out} (left open). */
  public static void write(Report report, OutputStream out) throws IOException {
    write(report, out, new RenderedEvidence());
  }

  private static void write(Report report, OutputStream out, RenderedEvidence evidence) throws IOException {
    if (report.summary() == null) {
      throw new IllegalArgumentException("a report needs a summary to be written");
    }
    try (JsonGenerator g = PrintableJson.configure(MAPPER.createGenerator(out))) {
      g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      g.setPrettyPrinter(new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n")));
      writeValue(MAPPER.writer().withAttribute(RenderedEvidence.class, evidence), g, report);
      g.writeRaw('\n');
    }
  }

  /** One source x recipient cell, as in report.json's {@code matrix[]}. */
  public static void matrixCell(JsonGenerator g, MatrixCell c) throws IOException {
    writeValue(g, c);
  }

  /** One finding, as in report.json's {@code findings[]}; exports of a selection reuse it. */
  public static void finding(JsonGenerator g, Finding f) throws IOException {
    writeValue(g, f);
  }

  /** One tenant's impact, as in report.json's {@code tenants[]}. */
  public static void tenant(JsonGenerator g, TenantImpact t) throws IOException {
    writeValue(g, t);
  }

  /** Evidence as report.json holds it, key by key in the file's order, as a reader of the file sees it. */
  public static Map<String, Object> fields(Evidence evidence) {
    return ReportMapping.fields(evidence);
  }

  private static void writeValue(JsonGenerator g, Object value) throws IOException {
    writeValue(MAPPER.writer(), g, value);
  }

  private static void writeValue(ObjectWriter writer, JsonGenerator g, Object value) throws IOException {
    try {
      writer.writeValue(g, value);
    } catch (DatabindException e) {
      // Evidence that is not a JSON value is the caller's bug, not an I/O failure: rethrow it as such.
      if (e.getCause() instanceof IllegalArgumentException notJson) {
        throw notJson;
      }
      throw e;
    }
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
    Report report;
    try (JsonParser p = MAPPER.createParser(in)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException(name + " is not a kvscope report.json: it does not start with a JSON object");
      }
      report = MAPPER.readValue(p, Report.class);
    } catch (JacksonException | IllegalArgumentException | DateTimeException | NullPointerException e) {
      // A bad enum spelling, timestamp or missing id: say which file, not a bare stack trace.
      throw new IOException(name + " is not a valid kvscope report.json: " + e.getMessage(), e);
    }
    String version = report.reportVersion();
    String major = Report.REPORT_VERSION.substring(0, Report.REPORT_VERSION.indexOf('.') + 1);
    if (version != null && !version.startsWith(major)) {
      throw new IOException(name + " has " + KvscopeOutputs.REPORT_VERSION_FIELD + " " + version + "; this kvscope reads "
          + major + "x (re-run 'kvscope analyze' with this version to regenerate it)");
    }
    if (version == null || report.summary() == null) {
      throw new IOException(name + " is not a kvscope report.json: it has no "
          + (version == null ? KvscopeOutputs.REPORT_VERSION_FIELD : "summary"));
    }
    return report;
  }
}

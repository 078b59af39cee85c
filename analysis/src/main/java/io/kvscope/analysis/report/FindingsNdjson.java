package io.kvscope.analysis.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kvscope.ingest.json.PrintableJson;
import io.kvscope.model.finding.Span;
import io.kvscope.analysis.impact.Report;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * findings.ndjson: the rows and columns of findings.arrow ({@link FindingColumn}) as
 * newline-delimited JSON, one object per line, UTF-8, keys in column order and every key on every
 * line (null where unknown). DuckDB ({@code read_json_auto}), pandas ({@code read_json(...,
 * lines=True)}) and polars ({@code read_ndjson}) read it with nothing installed beyond
 * themselves. Integers are written as JSON integers, never with a fraction; {@code time} is
 * ISO-8601 UTC with milliseconds, the precision of the Arrow column; {@code evidence} stays a
 * string of compact JSON, as in the Arrow file, so every line has the same keys whatever the kind.
 * Strings are escaped by Jackson: a quote, backslash or control character in a tenant or id cannot
 * end a line or an object early.
 */
public final class FindingsNdjson {

  public static final String FILE_NAME = Format.NDJSON.fileName();

  /** How {@code time} is written: always three fraction digits, so every reader parses one shape. */
  static final DateTimeFormatter TIME_FORMAT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private static final JsonFactory JSON = JsonFactory.builder().build();

  private FindingsNdjson() {}

  public static Path write(Report report, Path target) throws IOException {
    return write(report, target, new RenderedEvidence());
  }

  /** As {@link #write(Report, Path)}, with the evidence cells other files of the run rendered too. */
  static Path write(Report report, Path target, RenderedEvidence evidence) throws IOException {
    return AtomicFile.write(target, out -> write(report, out, evidence));
  }

  private static void write(Report report, OutputStream out, RenderedEvidence evidence) throws IOException {
    try (JsonGenerator g = PrintableJson.configure(JSON.createGenerator(out))) {
      g.setRootValueSeparator(null); // no space of Jackson's own between lines: each ends with its '\n'
      FindingRow.forEach(report, evidence, row -> {
        g.writeStartObject();
        for (FindingColumn column : FindingColumn.values()) {
          g.writeFieldName(column.columnName);
          if (column.type == FindingColumn.Type.SPANS) {
            spans(g, column.valueOf(row));
          } else {
            scalar(g, column.type, column.valueOf(row));
          }
        }
        g.writeEndObject();
        g.writeRaw('\n');
      });
    }
  }

  private static void scalar(JsonGenerator g, FindingColumn.Type type, Object value) throws IOException {
    if (value == null) {
      g.writeNull();
      return;
    }
    switch (type) {
      case TEXT -> g.writeString((String) value);
      case BOOL -> g.writeBoolean((Boolean) value);
      case INT32, INT64 -> g.writeNumber(((Number) value).longValue());
      case TIME -> g.writeString(TIME_FORMAT.format((Instant) value));
      case SPANS -> throw new IllegalArgumentException("spans are not a scalar column");
    }
  }

  private static void spans(JsonGenerator g, Object value) throws IOException {
    if (value == null) {
      g.writeNull();
      return;
    }
    g.writeStartArray();
    @SuppressWarnings("unchecked")
    List<Span> spans = (List<Span>) value;
    for (Span span : spans) {
      g.writeStartObject();
      for (FindingColumn.SpanField field : FindingColumn.SpanField.values()) {
        g.writeFieldName(field.columnName);
        scalar(g, field.type, field.value.apply(span));
      }
      g.writeEndObject();
    }
    g.writeEndArray();
  }
}

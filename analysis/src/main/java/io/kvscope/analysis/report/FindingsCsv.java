package io.kvscope.analysis.report;

import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.Source;
import io.kvscope.analysis.impact.Report;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * findings.csv: one row per finding, RFC 4180 (CRLF line ends; a field holding a comma, quote or
 * line break is quoted, quotes doubled), UTF-8, a header row. Multi-valued cells
 * ({@code source_tenants}, {@code source_requests}) are {@code ;}-separated in source order;
 * {@code evidence} is compact JSON; unknown values are empty. Values are written verbatim (no
 * spreadsheet-formula escaping) so that pandas and DuckDB read exactly what the logs said.
 */
public final class FindingsCsv {

  public static final String FILE_NAME = Format.CSV.fileName();

  /** The header, in column order. */
  public static final List<String> COLUMNS = List.of(
      "id", "kind", "confidence", "request_id", "engine_rid", "tenant", "time", "node", "decode_node",
      "source_tenants", "source_requests", "matched_tokens", "evidence", "source_attributions");

  private FindingsCsv() {}

  public static Path write(Report report, Path target) throws IOException {
    return AtomicFile.writeText(target, out -> write(report, out));
  }

  static void write(Report report, Writer out) throws IOException {
    row(out, COLUMNS);
    for (Finding f : report.findings()) {
      row(out, List.of(
          f.id(), f.kind().id(), f.confidence().id(),
          orEmpty(f.requestId()), orEmpty(f.engineRid()), orEmpty(f.tenant()),
          f.time() == null ? "" : f.time().toString(),
          orEmpty(f.node()), orEmpty(f.decodeNode()),
          String.join(";", f.sources().stream().map(Source::tenant).filter(Objects::nonNull).distinct().toList()),
          String.join(";", f.sources().stream().map(Source::requestId).toList()),
          Long.toString(f.matchedTokens()),
          JsonValues.compact(f.evidence()),
          // sole or candidate, one per source request, in the same order
          String.join(";", f.sources().stream().map(s -> s.attribution().id()).toList())));
    }
  }

  private static void row(Writer out, List<String> fields) throws IOException {
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      out.write(field(fields.get(i)));
    }
    out.write("\r\n");
  }

  /** One RFC 4180 field. */
  static String field(String value) {
    boolean quote = value.indexOf(',') >= 0 || value.indexOf('"') >= 0 || value.indexOf('\n') >= 0
        || value.indexOf('\r') >= 0;
    return quote ? '"' + value.replace("\"", "\"\"") + '"' : value;
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}

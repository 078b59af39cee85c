package io.kvscope.analysis.report;

import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.Source;
import io.kvscope.analysis.impact.Report;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * findings.csv: one row per finding, RFC 4180 (CRLF line ends), UTF-8, a header row. Multi-valued
 * cells ({@code source_tenants}, {@code source_requests}) are {@code ;}-separated in source order;
 * {@code evidence} is compact JSON; unknown values are empty. Every cell goes through
 * {@link CsvCell}: a value that a spreadsheet would run as a formula starts with {@code '}, and a
 * control character is written as its escape ({@code \n}, {@code \x1b}); values without either
 * are written exactly as the logs said, for pandas and DuckDB.
 */
public final class FindingsCsv {

  public static final String FILE_NAME = Format.CSV.fileName();

  /** The header, in column order. */
  public static final List<String> COLUMNS = List.of(
      "id", "kind", "confidence", "request_id", "engine_rid", "tenant", "time", "node", "decode_node",
      "source_tenants", "source_requests", "matched_tokens", "evidence", "source_attributions");

  private FindingsCsv() {}

  public static Path write(Report report, Path target) throws IOException {
    return write(report, target, new RenderedEvidence());
  }

  /** As {@link #write(Report, Path)}, with the evidence cells other files of the run rendered too. */
  static Path write(Report report, Path target, RenderedEvidence evidence) throws IOException {
    return AtomicFile.writeText(target, out -> write(report, out, evidence));
  }

  private static void write(Report report, Writer out, RenderedEvidence evidence) throws IOException {
    row(out, COLUMNS.stream().map(CsvCell::of).toList());
    for (Finding f : report.findings()) {
      row(out, List.of(
          CsvCell.of(f.id()), CsvCell.of(f.kind().id()), CsvCell.of(f.confidence().id()),
          CsvCell.of(f.requestId()), CsvCell.of(f.engineRid()), CsvCell.of(f.tenant()),
          CsvCell.of(f.time() == null ? null : f.time().toString()),
          CsvCell.of(f.node()), CsvCell.of(f.decodeNode()),
          CsvCell.list(f.sources().stream().map(Source::tenant).filter(Objects::nonNull).distinct().toList()),
          CsvCell.list(f.sources().stream().map(Source::requestId).toList()),
          Long.toString(f.matchedTokens()),
          CsvCell.of(evidence.compact(f.evidence())),
          // sole or candidate, one per source request, in the same order
          CsvCell.list(f.sources().stream().map(s -> s.attribution().id()).toList())));
    }
  }

  /** One row of cells already made by {@link CsvCell}. */
  private static void row(Writer out, List<String> cells) throws IOException {
    out.write(String.join(",", cells));
    out.write("\r\n");
  }
}

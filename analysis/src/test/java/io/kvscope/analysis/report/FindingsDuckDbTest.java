package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.impact.Report;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The issue this file answers: a responder's DuckDB must open the findings without an extension.
 * DuckDB itself (its JDBC build, whose JSON reader is linked in) reads findings.ndjson with
 * {@code read_json_auto}, as docs/findings-table.md tells users to, and must infer integers as
 * integers, the time as a timestamp, spans as a list of structs, and give back the Arrow file's rows.
 */
class FindingsDuckDbTest {

  @TempDir
  Path dir;

  @Test
  void duckDbReadsTheNdjsonNativelyWithIntegerTypes() throws Exception {
    Report report = withALoggedCopy(IncidentFixture.incident());
    ReportWriters.writeAll(report, dir, WriteOptions.defaults());
    String ndjson = dir.resolve(FindingsNdjson.FILE_NAME).toString().replace("'", "''");

    try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement sql = db.createStatement()) {
      sql.execute("SET autoinstall_known_extensions = false"); // nothing may come from the network
      sql.execute("CREATE TABLE findings AS SELECT * FROM read_json_auto('" + ndjson + "')");

      Map<String, String> types = new LinkedHashMap<>();
      try (ResultSet r = sql.executeQuery("DESCRIBE findings")) {
        while (r.next()) {
          types.put(r.getString("column_name"), r.getString("column_type"));
        }
      }
      assertThat(types.keySet()).containsExactlyElementsOf(
          java.util.Arrays.stream(FindingColumn.values()).map(c -> c.columnName).toList());
      for (String integer : List.of("finding_matched_tokens", "source_count", "source_index", "source_matched_tokens")) {
        assertThat(types.get(integer)).as(integer).isEqualTo("BIGINT");
      }
      assertThat(types.get("counted")).isEqualTo("BOOLEAN");
      assertThat(types.get("time")).isEqualTo("TIMESTAMP WITH TIME ZONE");
      assertThat(types.get("spans")).isEqualTo("STRUCT(recipient_utf16_start BIGINT, recipient_utf16_end BIGINT, "
          + "source_field VARCHAR, source_utf16_start BIGINT, source_utf16_end BIGINT, word_tokens BIGINT, recipient_copy VARCHAR, "
          + "source_copy VARCHAR)[]");

      // The same rows as the Arrow file, in the same order, integers and nulls alike.
      List<Map<String, Object>> arrow = FindingsNdjsonTest.readArrow(dir.resolve(FindingsArrow.FILE_NAME));
      List<List<Object>> duck = new ArrayList<>();
      try (ResultSet r = sql.executeQuery(
          "SELECT id, source_index, source_matched_tokens, finding_matched_tokens, source_request_id, len(spans) FROM findings")) {
        while (r.next()) {
          duck.add(java.util.Arrays.asList(r.getString(1), r.getObject(2), r.getObject(3), r.getObject(4), r.getString(5),
              r.getObject(6)));
        }
      }
      assertThat(duck).hasSameSizeAs(arrow);
      for (int i = 0; i < duck.size(); i++) {
        Map<String, Object> a = arrow.get(i);
        List<?> spans = (List<?>) a.get("spans");
        assertThat(duck.get(i)).as("row %d", i).containsExactly(a.get("id"), a.get("source_index"),
            a.get("source_matched_tokens"), a.get("finding_matched_tokens"), a.get("source_request_id"),
            spans == null ? null : (long) spans.size());
      }

      // The copy a span was found in, by the record it was read from; null for the kept texts.
      try (ResultSet r = sql.executeQuery("SELECT s.recipient_copy, s.source_copy, count(*) FROM findings, "
          + "unnest(spans) AS u(s) GROUP BY ALL ORDER BY 1 NULLS LAST")) {
        assertThat(r.next()).isTrue();
        assertThat(List.of(r.getString(1), r.getString(2), r.getLong(3))).containsExactly("gateway retry.jsonl:4",
            "otlp spans.jsonl:9", 1L);
        assertThat(r.next()).isTrue();
        assertThat(r.getString(1)).isNull();
        assertThat(r.getString(2)).isNull();
      }

      // The documented queries run: who leaked to whom, one row per span, and the Parquet copy.
      try (ResultSet r = sql.executeQuery("SELECT source_tenant, tenant, count(DISTINCT id), sum(source_matched_tokens) "
          + "FROM findings WHERE counted AND kind <> 'same_tenant_reuse' GROUP BY ALL ORDER BY 4 DESC")) {
        assertThat(r.next()).isTrue();
        assertThat(r.getString(1)).isNotNull();
      }
      try (ResultSet r = sql.executeQuery(
          "SELECT count(*) FROM findings, unnest(spans) AS u(s) WHERE s.recipient_utf16_end > s.recipient_utf16_start")) {
        r.next();
        long expectedSpans = report.findings().stream().flatMap(f -> f.sources().stream()).mapToLong(s -> s.spans().size()).sum();
        assertThat(r.getLong(1)).isEqualTo(expectedSpans);
      }
      Path parquet = dir.resolve("findings.parquet");
      sql.execute("COPY findings TO '" + parquet.toString().replace("'", "''") + "' (FORMAT parquet)");
      assertThat(Files.size(parquet)).isPositive();
    }
  }

  /**
   * The report with the first span of its first finding with spans found in logged copies (where
   * records disagree): the copy columns then hold text, as DuckDB must type them.
   */
  static Report withALoggedCopy(Report report) {
    List<io.kvscope.model.finding.Finding> findings = new ArrayList<>(report.findings());
    for (int i = 0; i < findings.size(); i++) {
      io.kvscope.model.finding.Finding f = findings.get(i);
      if (!f.sources().isEmpty() && !f.sources().getFirst().spans().isEmpty()) {
        List<io.kvscope.model.finding.Source> sources = new ArrayList<>(f.sources());
        io.kvscope.model.finding.Source s = sources.getFirst();
        List<io.kvscope.model.finding.Span> spans = new ArrayList<>(s.spans());
        spans.set(0, spans.getFirst().inCopies("gateway retry.jsonl:4", "otlp spans.jsonl:9"));
        sources.set(0, new io.kvscope.model.finding.Source(s.requestId(), s.engineRid(), s.tenant(), s.matchedTokens(),
            spans, s.attribution()));
        findings.set(i, new io.kvscope.model.finding.Finding(f.id(), f.kind(), f.confidence(), f.requestId(),
            f.engineRid(), f.tenant(), f.time(), f.node(), f.decodeNode(), sources, f.evidence()));
        return new Report(report.reportVersion(), report.generatedAt(), report.index(), report.summary(),
            report.windows(), findings, report.tenants(), report.matrix(), report.timeline(), report.dataCategories(),
            report.coverage(), report.parameters(), report.review(), report.evidence());
      }
    }
    throw new IllegalStateException("the fixture has no span");
  }
}

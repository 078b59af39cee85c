package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.model.finding.Finding;
import io.kvscope.analysis.impact.Report;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FindingsCsvTest {

  @TempDir
  Path dir;

  @Test
  void oneRowPerFindingInTheDocumentedColumns() throws IOException {
    Report report = IncidentFixture.incident();
    String csv = Files.readString(FindingsCsv.write(report, dir.resolve("findings.csv")), StandardCharsets.UTF_8);
    List<List<String>> rows = parse(csv);

    assertThat(rows.getFirst()).containsExactly("id", "kind", "confidence", "request_id", "engine_rid", "tenant", "time",
        "node", "decode_node", "source_tenants", "source_requests", "matched_tokens", "evidence", "source_attributions");
    assertThat(rows).hasSize(report.findings().size() + 1);
    assertThat(rows).allSatisfy(row -> assertThat(row).hasSize(14));
    for (int i = 0; i < report.findings().size(); i++) {
      Finding f = report.findings().get(i);
      List<String> row = rows.get(i + 1);
      assertThat(row.get(0)).isEqualTo(f.id());
      assertThat(row.get(1)).isEqualTo(f.kind().id());
      assertThat(row.get(2)).isEqualTo(f.confidence().id());
      assertThat(row.get(3)).isEqualTo(f.requestId() == null ? "" : f.requestId());
      assertThat(row.get(5)).isEqualTo(f.tenant() == null ? "" : f.tenant());
      assertThat(row.get(6)).isEqualTo(f.time().toString());
      assertThat(Long.parseLong(row.get(11))).isEqualTo(f.matchedTokens());
      // Evidence is JSON that reads back to the same values.
      assertThat(new ObjectMapper().readTree(row.get(12)).toString())
          .isEqualTo(new ObjectMapper().valueToTree(ReportJson.fields(f.evidence())).toString());
    }
  }

  @Test
  void quotesCommasQuotesAndLineBreaksPerRfc4180() throws IOException {
    String csv = Files.readString(FindingsCsv.write(IncidentFixture.incident(), dir.resolve("findings.csv")));
    assertThat(csv).contains("\r\n").doesNotContain("\n\r");
    // The tenant with a comma and quotes is quoted with doubled quotes.
    assertThat(csv).contains(",\"Acme, \"\"Intl\"\"\",");
    List<List<String>> rows = parse(csv);
    List<String> acme = rows.stream().filter(r -> r.get(0).equals("over_length_accepted:" + IncidentFixture.AC_REQ_1))
        .findFirst().orElseThrow();
    assertThat(acme.get(5)).isEqualTo(IncidentFixture.ACME);
    // Multiple sources, in order; a line break inside evidence JSON stays escaped JSON.
    List<String> canary = rows.stream().filter(r -> r.get(1).equals("canary_leak")).findFirst().orElseThrow();
    assertThat(canary.get(9)).isEqualTo(IncidentFixture.NORTHWIND + ";" + IncidentFixture.UMBRELLA + ";"
        + IncidentFixture.ACME);
    assertThat(canary.get(13)).isEqualTo("sole;candidate;candidate");
    assertThat(canary.get(10)).isEqualTo(IncidentFixture.NW_REQ_2 + ";" + IncidentFixture.UM_REQ_1 + ";"
        + IncidentFixture.AC_REQ_1);
    List<String> rare = rows.stream().filter(r -> r.get(1).equals("rare_identifier_leak")).findFirst().orElseThrow();
    assertThat(new ObjectMapper().readTree(rare.get(12)).get("note").asText()).isEqualTo("seen once,\nin one \"tenant\"");
  }

  /** A strict RFC 4180 reader, independent of the writer. */
  static List<List<String>> parse(String csv) {
    List<List<String>> rows = new ArrayList<>();
    List<String> row = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    int i = 0;
    boolean quoted = false;
    while (i < csv.length()) {
      char c = csv.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < csv.length() && csv.charAt(i + 1) == '"') {
          field.append('"');
          i += 2;
          continue;
        }
        if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
        i++;
        continue;
      }
      if (c == '"') {
        if (field.length() != 0) {
          throw new AssertionError("quote inside an unquoted field at " + i);
        }
        quoted = true;
      } else if (c == ',') {
        row.add(field.toString());
        field.setLength(0);
      } else if (c == '\r' && i + 1 < csv.length() && csv.charAt(i + 1) == '\n') {
        row.add(field.toString());
        field.setLength(0);
        rows.add(row);
        row = new ArrayList<>();
        i++;
      } else if (c == '\n' || c == '\r') {
        throw new AssertionError("bare line break outside quotes at " + i);
      } else {
        field.append(c);
      }
      i++;
    }
    if (!row.isEmpty() || field.length() > 0) {
      throw new AssertionError("last record not terminated by CRLF");
    }
    return rows;
  }
}

package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attacker who controls request content, ids and tenant fields (a customer), and the one who
 * names files in the log folder: their values go through every command a responder runs, and no
 * output may carry a raw control character, a forged line, a live spreadsheet formula or a
 * Markdown link.
 */
class HostileValuesTest {

  @TempDir Path tmp;

  @Test
  void noOutputOfAnyCommandCarriesARawControlCharacterOrAForgedLine() throws Exception {
    Path in = tmp.resolve("in");
    Path index = tmp.resolve("index");
    Path reports = tmp.resolve("reports");
    HostileIncident.write(in);

    Map<String, CliTestSupport.Run> runs = new LinkedHashMap<>();
    runs.put("ingest", CliTestSupport.run("ingest", in.toString(), "--index", index.toString(), "--quiet"));
    runs.put("search", CliTestSupport.run("search", "--index", index.toString(), "*:*", "--limit", "100"));
    runs.put("search-json", CliTestSupport.run("search", "--index", index.toString(), "*:*", "--json", "--limit", "100"));
    runs.put("search-events", CliTestSupport.run("search", "--index", index.toString(), "doc_type:engine_event", "--limit", "100"));
    runs.put("search-revealed", CliTestSupport.run("search", "--index", index.toString(), "*:*", "--reveal"));
    runs.put("analyze", CliTestSupport.run("analyze", "--index", index.toString(), "--out", reports.toString(), "--quiet"));
    runs.put("audit", CliTestSupport.run("audit", "--index", index.toString()));
    runs.put("report", CliTestSupport.run("report", reports.resolve("report.json").toString(), "--out",
        tmp.resolve("rerendered").toString()));
    runs.put("bad-option", CliTestSupport.run("search", "--index", index.toString(), "--\u001b]52;c;SGVsbG8=\u0007"));
    runs.put("no-index", CliTestSupport.run("search", "--index", tmp.resolve("none\u001b[2J").toString(), "*:*"));

    // The positive control: the leak between the two hostile tenants is found.
    assertThat(runs.get("analyze").out()).contains("leaked responses (cross-tenant, confirmed+probable): 1");
    assertThat(runs.get("audit").exitCode()).isEqualTo(ExitCodes.FINDINGS);
    for (Map.Entry<String, CliTestSupport.Run> run : runs.entrySet()) {
      String printed = run.getValue().out() + run.getValue().err();
      assertThat(HostileIncident.rawControls(printed)).as("raw control characters printed by %s", run.getKey()).isEmpty();
      assertThat(printed.lines()).as("lines printed by %s", run.getKey())
          .noneMatch(line -> line.startsWith("Ingested 999") || line.startsWith("forged") || line.startsWith("Forged"));
    }
    // The file whose name tried to forge a line is listed, escaped, on its own line.
    assertThat(runs.get("ingest").out()).contains("litellm\\nIngested 999 of 999 files (forged).jsonl: 1 record, 1 bad");
    assertThat(runs.get("search").out()).contains("gw-101\\x1b[31m\\x9b2J").contains("sglang-decode-\\x1b[1m0");

    // Every text the reports hold: line ends only, no other control character, in any file.
    for (Path root : List.of(reports, tmp.resolve("rerendered"))) {
      for (Path file : files(root)) {
        if (file.getFileName().toString().endsWith(".arrow")) {
          continue; // a binary format that keeps values exactly
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String withoutLineEnds = file.getFileName().toString().endsWith(".csv") ? text.replace("\r\n", "\n") : text;
        assertThat(HostileIncident.rawControls(withoutLineEnds)).as("raw control characters in %s", file).isEmpty();
      }
    }
  }

  @Test
  void findingsCsvRunsNoFormulaAndBundleMarkdownLinksNothing() throws Exception {
    Path in = tmp.resolve("in");
    Path index = tmp.resolve("index");
    Path reports = tmp.resolve("reports");
    HostileIncident.write(in);
    CliTestSupport.run("ingest", in.toString(), "--index", index.toString(), "--quiet");
    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", index.toString(), "--out", reports.toString(), "--quiet");
    assertThat(analyze.out()).contains("leaked responses (cross-tenant, confirmed+probable): 1");

    List<List<String>> rows = Csv.parse(Files.readString(reports.resolve("findings.csv")));
    assertThat(rows).hasSizeGreaterThan(1);
    for (List<String> row : rows) {
      for (String cell : row) {
        assertThat(cell).as("a spreadsheet would run this cell as a formula").doesNotMatch("(?s)^[=+\\-@\t\r\uff1d\uff0b\uff0d\uff20].*");
        for (String part : cell.split(";")) {
          assertThat(part).as("a spreadsheet splitting on ; would run this part").doesNotMatch("(?s)^[=+\\-@\t\r].*");
        }
      }
    }
    assertThat(String.join("\n", rows.stream().map(r -> String.join(",", r)).toList())).contains("'=HYPERLINK")
        .contains("'@SUM(1+1)");

    // Two tenants, two bundles; neither Markdown file links, loads or runs anything.
    List<Path> bundles;
    try (Stream<Path> dirs = Files.list(reports.resolve("bundles"))) {
      bundles = dirs.toList();
    }
    assertThat(bundles).hasSize(2);
    for (Path bundle : bundles) {
      String markdown = Files.readString(bundle.resolve("notification.md"));
      String outsideCode = CODE_SPAN.matcher(markdown).replaceAll("");
      assertThat(outsideCode).as("Markdown outside code spans in %s", bundle.getFileName())
          .doesNotContain("](").doesNotContain("![").doesNotContain("<http").doesNotContain("https:")
          .doesNotContain("javascript:").doesNotContain("evil.example");
    }
  }

  /** A code span: a run of backticks, anything, the same run (nothing inside is Markdown). */
  private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?s:.+?)\\1");

  private static List<Path> files(Path root) throws Exception {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(Files::isRegularFile).forEach(files::add);
    }
    return files;
  }

  /** A strict RFC 4180 reader, enough to see the cells a spreadsheet would see. */
  static final class Csv {
    static List<List<String>> parse(String text) {
      List<List<String>> rows = new ArrayList<>();
      List<String> row = new ArrayList<>();
      StringBuilder cell = new StringBuilder();
      boolean quoted = false;
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (quoted) {
          if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
            cell.append('"');
            i++;
          } else if (c == '"') {
            quoted = false;
          } else {
            cell.append(c);
          }
        } else if (c == '"') {
          quoted = true;
        } else if (c == ',') {
          row.add(cell.toString());
          cell.setLength(0);
        } else if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
          row.add(cell.toString());
          cell.setLength(0);
          rows.add(row);
          row = new ArrayList<>();
          i++;
        } else {
          cell.append(c);
        }
      }
      return rows;
    }
  }
}

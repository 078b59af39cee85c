package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/findings-table.md documents every column and span field, in file order, with its type and nullability. */
class FindingsTableDocTest {

  /** A table row of the page: {@code | `name` | arrow-type / json-type | null | ... |}. */
  private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9_]+)` \\| ([^|/]+?) / [^|]+\\| ([^|]+) \\|");

  @Test
  void everyColumnIsDocumentedWithItsTypeAndNullability() throws IOException {
    List<String> lines = Files.readAllLines(Path.of("..", "docs", "findings-table.md"));
    List<String> documented = new ArrayList<>();
    for (String line : lines) {
      Matcher m = ROW.matcher(line);
      if (m.find()) {
        documented.add(m.group(1) + " " + m.group(2).trim() + " " + (m.group(3).trim().equals("never") ? "never" : "nullable"));
      }
    }
    List<String> declared = new ArrayList<>();
    for (FindingColumn c : FindingColumn.values()) {
      declared.add(c.columnName + " " + typeName(c.type) + " " + (c.nullable ? "nullable" : "never"));
    }
    Arrays.stream(FindingColumn.SpanField.values()).forEach(f -> declared.add(f.columnName + " " + typeName(f.type) + " "
        + (f.nullable ? "nullable" : "never")));
    assertThat(documented).containsExactlyElementsOf(declared);
  }

  private static String typeName(FindingColumn.Type type) {
    return switch (type) {
      case TEXT -> "utf8";
      case BOOL -> "bool";
      case INT32 -> "int32";
      case INT64 -> "int64";
      case TIME -> "timestamp[ms, tz=UTC]";
      case SPANS -> "list&lt;struct&gt;";
    };
  }
}

package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.analysis.impact.Report;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * findings.ndjson against findings.arrow, both written to disk by {@link ReportWriters} and read
 * back with Jackson's tree reader and Arrow's file reader: the same rows and values, integers
 * typed as integers, nulls as nulls, span offsets that point at the fixture's planted text, and
 * hostile ids that cannot break a line.
 */
class FindingsNdjsonTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  @Test
  void ndjsonHoldsTheArrowFilesRowsAndValues() throws IOException {
    Report report = IncidentFixture.incident();
    ReportWriters.writeAll(report, dir, WriteOptions.defaults());

    List<Map<String, Object>> arrow = readArrow(dir.resolve(FindingsArrow.FILE_NAME));
    List<JsonNode> lines = readNdjson(dir.resolve(FindingsNdjson.FILE_NAME));

    // One row per (finding, source), one for a finding without sources, counted from the fixture.
    long expectedRows = report.findings().stream().mapToLong(f -> Math.max(1, f.sources().size())).sum();
    assertThat(lines).hasSize((int) expectedRows);
    assertThat(arrow).hasSize((int) expectedRows);
    List<String> columns = arrowColumnNames(dir.resolve(FindingsArrow.FILE_NAME));
    for (int i = 0; i < lines.size(); i++) {
      JsonNode line = lines.get(i);
      assertThat(fieldNames(line)).as("keys of line %d, in column order", i + 1).isEqualTo(columns);
      for (String column : columns) {
        assertThat(plain(line.get(column), column)).as("line %d, %s", i + 1, column).isEqualTo(arrow.get(i).get(column));
      }
    }
  }

  @Test
  void integersStayIntegersAndUnknownsAreNull() throws IOException {
    ReportWriters.writeAll(IncidentFixture.incident(), dir, WriteOptions.defaults());

    // The Arrow types, column by column: integers are signed integers, never floating point.
    Map<String, ArrowType> types = new LinkedHashMap<>();
    Map<String, Boolean> nullable = new LinkedHashMap<>();
    try (BufferAllocator allocator = new RootAllocator();
         FileChannel channel = FileChannel.open(dir.resolve(FindingsArrow.FILE_NAME), StandardOpenOption.READ);
         ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
      for (Field f : reader.getVectorSchemaRoot().getSchema().getFields()) {
        types.put(f.getName(), f.getType());
        nullable.put(f.getName(), f.isNullable());
      }
    }
    ArrowType int64 = new ArrowType.Int(64, true);
    ArrowType int32 = new ArrowType.Int(32, true);
    assertThat(types).containsEntry("finding_matched_tokens", int64).containsEntry("source_matched_tokens", int64)
        .containsEntry("source_count", int32).containsEntry("source_index", int32)
        .containsEntry("time", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC"))
        .containsEntry("counted", ArrowType.Bool.INSTANCE)
        .containsEntry("spans", ArrowType.List.INSTANCE);
    assertThat(types.values()).noneMatch(t -> t instanceof ArrowType.FloatingPoint || t instanceof ArrowType.Decimal);
    assertThat(nullable).containsEntry("source_index", true).containsEntry("source_matched_tokens", true)
        .containsEntry("finding_matched_tokens", false).containsEntry("id", false);

    // In JSON: integer tokens without a fraction, and a real null on a row without a source.
    List<JsonNode> lines = readNdjson(dir.resolve(FindingsNdjson.FILE_NAME));
    JsonNode config = lines.stream().filter(l -> l.get("kind").asText().equals("config_pool_below_context")).findFirst().orElseThrow();
    for (String column : List.of("source_index", "source_matched_tokens", "source_request_id", "spans", "request_id", "tenant")) {
      assertThat(config.get(column).getNodeType()).as(column).isEqualTo(JsonNodeType.NULL);
    }
    assertThat(config.get("source_count").isIntegralNumber()).isTrue();
    JsonNode canary = lines.stream().filter(l -> l.get("kind").asText().equals("canary_leak")).findFirst().orElseThrow();
    for (String column : List.of("source_index", "source_matched_tokens", "finding_matched_tokens", "source_count")) {
      assertThat(canary.get(column).isIntegralNumber()).as(column).isTrue();
    }
    assertThat(canary.get("spans").get(0).get("recipient_utf16_start").isIntegralNumber()).isTrue();
    String raw = Files.readString(dir.resolve(FindingsNdjson.FILE_NAME));
    assertThat(raw).doesNotContainPattern("\"(source_index|source_matched_tokens|finding_matched_tokens|source_count)\":-?\\d+\\.");
    // The time, in the Arrow column's millisecond precision, as ISO-8601 UTC.
    assertThat(canary.get("time").asText()).isEqualTo("2026-08-29T09:49:03.250Z");
    assertThat(config.get("time").asText()).isEqualTo("2026-08-26T22:00:00.000Z");
  }

  @Test
  void spanOffsetsPointAtTheLeakedTextOnBothSides() throws IOException {
    ReportWriters.writeAll(IncidentFixture.incident(), dir, WriteOptions.defaults());
    List<JsonNode> lines = readNdjson(dir.resolve(FindingsNdjson.FILE_NAME));

    // Each leaked passage the fixture planted, by (recipient, source): the text the span must cover.
    Map<String, String> planted = Map.of(
        IncidentFixture.GX_REQ_1 + "<-" + IncidentFixture.NW_REQ_1, IncidentFixture.NW_SECRET,
        IncidentFixture.IT_REQ_1 + "<-" + IncidentFixture.NW_REQ_2, IncidentFixture.CANARY,
        IncidentFixture.IT_REQ_1 + "<-" + IncidentFixture.UM_REQ_1, IncidentFixture.UM_SECRET,
        IncidentFixture.IT_REQ_1 + "<-" + IncidentFixture.AC_REQ_1, IncidentFixture.UM_SECRET,
        IncidentFixture.NW_REQ_3 + "<-" + IncidentFixture.GX_REQ_2, IncidentFixture.GX_SECRET,
        IncidentFixture.UM_REQ_2 + "<-" + IncidentFixture.UM_REQ_1, IncidentFixture.UM_SECRET);
    int checked = 0;
    for (JsonNode line : lines) {
      if (line.get("spans").isNull() || line.get("spans").isEmpty()) {
        continue;
      }
      String recipient = line.get("request_id").asText();
      String source = line.get("source_request_id").asText();
      String expected = planted.get(recipient + "<-" + source);
      assertThat(expected).as("a planted passage for %s <- %s", recipient, source).isNotNull();
      for (JsonNode span : line.get("spans")) {
        String response = IncidentFixture.RESPONSES.get(recipient);
        String sourceText = "prompt_text".equals(span.get("source_field").asText())
            ? IncidentFixture.PROMPTS.get(source) : IncidentFixture.RESPONSES.get(source);
        assertThat(response.substring(span.get("recipient_utf16_start").asInt(), span.get("recipient_utf16_end").asInt()))
            .isEqualTo(expected);
        assertThat(sourceText.substring(span.get("source_utf16_start").asInt(), span.get("source_utf16_end").asInt()))
            .isEqualTo(expected);
        checked++;
      }
    }
    assertThat(checked).as("spans checked").isEqualTo(planted.size());
  }

  @Test
  void quotesAndControlCharactersInIdsAreEscapedOneLinePerRow() throws IOException {
    String tenant = "evil\"tenant\n{\"id\":\"forged\"}\r\u0007\u001b[2J\\";
    String requestId = "req\u0000\"\n";
    Finding hostile = new Finding("rare_identifier_leak:" + requestId, FindingKind.RARE_IDENTIFIER_LEAK, Confidence.PROBABLE,
        requestId, null, tenant, Instant.parse("2026-09-01T00:00:00Z"), "prefill-a", null,
        List.of(new Source("src\t\"1", null, tenant + "\u2028", 3, List.of(), io.kvscope.model.finding.Attribution.CANDIDATE)),
        Map.of("note", "a\nb"));
    Report report = IncidentFixture.incident(List.of(hostile));
    ReportWriters.writeAll(report, dir, WriteOptions.defaults());

    Path file = dir.resolve(FindingsNdjson.FILE_NAME);
    byte[] bytes = Files.readAllBytes(file);
    for (byte b : bytes) {
      assertThat(b == '\n' || (b & 0xff) >= 0x20).as("raw control byte 0x%02x", b).isTrue();
    }
    List<JsonNode> lines = readNdjson(file);
    assertThat(lines).hasSize((int) report.findings().stream().mapToLong(f -> Math.max(1, f.sources().size())).sum());
    JsonNode row = lines.get(lines.size() - 1);
    assertThat(row.get("tenant").asText()).isEqualTo(tenant);
    assertThat(row.get("request_id").asText()).isEqualTo(requestId);
    assertThat(row.get("source_request_id").asText()).isEqualTo("src\t\"1");
    assertThat(row.get("source_tenant").asText()).isEqualTo(tenant + "\u2028");
    assertThat(JSON.readTree(row.get("evidence").asText()).get("note").asText()).isEqualTo("a\nb");
  }

  // ---- readers -------------------------------------------------------------------------------

  private static List<JsonNode> readNdjson(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    assertThat(text).as("every line ends with a newline").endsWith("\n");
    List<JsonNode> lines = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      if (!line.isEmpty()) {
        JsonNode node = JSON.readTree(line);
        assertThat(node.isObject()).as(line).isTrue();
        lines.add(node);
      }
    }
    return lines;
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static List<String> arrowColumnNames(Path file) throws IOException {
    try (BufferAllocator allocator = new RootAllocator();
         FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
         ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
      return reader.getVectorSchemaRoot().getSchema().getFields().stream().map(Field::getName).toList();
    }
  }

  /** Every row of an Arrow file as plain Java values, by column name. */
  static List<Map<String, Object>> readArrow(Path file) throws IOException {
    List<Map<String, Object>> rows = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator();
         FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
         ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        for (int i = 0; i < root.getRowCount(); i++) {
          Map<String, Object> row = new LinkedHashMap<>();
          for (FieldVector vector : root.getFieldVectors()) {
            row.put(vector.getName(), plain(vector, i));
          }
          rows.add(row);
        }
      }
    }
    return rows;
  }

  private static Object plain(FieldVector vector, int i) {
    if (vector.isNull(i)) {
      return null;
    }
    return switch (vector) {
      case VarCharVector v -> new String(v.get(i), StandardCharsets.UTF_8);
      case BigIntVector v -> v.get(i);
      case IntVector v -> (long) v.get(i);
      case BitVector v -> v.get(i) == 1;
      case TimeStampMilliTZVector v -> Instant.ofEpochMilli(v.get(i)).toString();
      case ListVector v -> {
        List<Object> items = new ArrayList<>();
        StructVector struct = (StructVector) v.getDataVector();
        for (int k = v.getElementStartIndex(i); k < v.getElementEndIndex(i); k++) {
          Map<String, Object> item = new LinkedHashMap<>();
          for (FieldVector child : struct.getChildrenFromFields()) {
            item.put(child.getName(), plain(child, k));
          }
          items.add(item);
        }
        yield items;
      }
      default -> throw new AssertionError("unexpected vector " + vector.getClass());
    };
  }

  /** A JSON value as the same plain Java value {@link #plain(FieldVector, int)} gives. */
  private static Object plain(JsonNode node, String column) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (node.isTextual()) {
      return "time".equals(column) ? Instant.parse(node.asText()).toString() : node.asText();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber()) {
      return node.longValue();
    }
    if (node.isArray()) {
      List<Object> items = new ArrayList<>();
      for (JsonNode item : node) {
        Map<String, Object> map = new LinkedHashMap<>();
        item.fields().forEachRemaining(e -> map.put(e.getKey(), plain(e.getValue(), e.getKey())));
        items.add(map);
      }
      return items;
    }
    throw new AssertionError("unexpected JSON value " + node);
  }
}

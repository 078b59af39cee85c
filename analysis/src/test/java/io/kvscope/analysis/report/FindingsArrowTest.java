package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.analysis.impact.Report;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FindingsArrowTest {

  @TempDir
  Path dir;

  /** One row as read back, by column name. */
  private record Row(Map<String, Object> values) {
    Object get(String column) {
      return values.get(column);
    }
  }

  @Test
  void oneRowPerFindingAndSourceReadsBackWithArrow() throws IOException {
    Report report = IncidentFixture.incident();
    Path file = FindingsArrow.write(report, dir.resolve("findings.arrow"));

    List<Row> rows = read(file);

    int expectedRows = report.findings().stream().mapToInt(f -> Math.max(1, f.sources().size())).sum();
    assertThat(rows).hasSize(expectedRows);

    // The canary finding has several sources: a row each, finding columns repeated, source columns apart.
    io.kvscope.model.finding.Finding canaryFinding = report.findings().stream()
        .filter(f -> f.kind().id().equals("canary_leak")).findFirst().orElseThrow();
    int canarySources = canaryFinding.sources().size();
    List<Row> canary = rows.stream().filter(r -> "canary_leak".equals(r.get("kind"))).toList();
    assertThat(canary).hasSize(canarySources).hasSizeGreaterThan(1);
    assertThat(canary).allSatisfy(r -> {
      assertThat(r.get("request_id")).isEqualTo(IncidentFixture.IT_REQ_1);
      assertThat(r.get("tenant")).isEqualTo(IncidentFixture.INITECH);
      assertThat(r.get("confidence")).isEqualTo("confirmed");
      assertThat(r.get("counted")).isEqualTo(true);
      assertThat(r.get("source_count")).isEqualTo(canarySources);
      assertThat(r.get("finding_matched_tokens")).isEqualTo(canaryFinding.matchedTokens());
      assertThat(r.get("time")).isEqualTo(IncidentFixture.at(2 * 24 * 60 + 35).toEpochMilli());
      assertThat(r.get("evidence")).isEqualTo("{\"canary\":\"KVCANARY-*\",\"markers\":1}");
    });
    assertThat(canary.get(0).get("source_index")).isEqualTo(0);
    assertThat(canary.get(0).get("source_tenant")).isEqualTo(IncidentFixture.NORTHWIND);
    assertThat(canary.get(0).get("source_request_id")).isEqualTo(IncidentFixture.NW_REQ_2);
    assertThat(canary.get(0).get("source_matched_tokens")).isEqualTo(6L);
    assertThat(canary.get(1).get("source_index")).isEqualTo(1);
    assertThat(canary.get(1).get("source_tenant")).isEqualTo(IncidentFixture.UMBRELLA);
    assertThat(canary.get(1).get("source_matched_tokens")).isEqualTo(14L);
    // The canary's source is named alone; the passage two requests held names each as a candidate.
    assertThat(canary.get(0).get("source_attribution")).isEqualTo("sole");
    assertThat(canary.get(1).get("source_attribution")).isEqualTo("candidate");
    assertThat((List<?>) canary.get(1).get("spans")).hasSize(1);

    // A config finding: no request, no sources, nulls where unknown.
    Row config = rows.stream().filter(r -> "config_pool_below_context".equals(r.get("kind"))).findFirst().orElseThrow();
    assertThat(config.get("request_id")).isNull();
    assertThat(config.get("tenant")).isNull();
    assertThat(config.get("decode_node")).isNull();
    assertThat(config.get("node")).isEqualTo("prefill-a");
    assertThat(config.get("source_index")).isNull();
    assertThat(config.get("source_tenant")).isNull();
    assertThat(config.get("source_matched_tokens")).isNull();
    assertThat(config.get("source_count")).isEqualTo(0);
    assertThat(config.get("counted")).isEqualTo(false);

    // The suspect overlap is a leak kind but not counted.
    Row suspect = rows.stream().filter(r -> IncidentFixture.HO_REQ_1.equals(r.get("request_id"))).findFirst().orElseThrow();
    assertThat(suspect.get("counted")).isEqualTo(false);
  }

  @Test
  void timeIsAUtcMillisecondTimestamp() throws IOException {
    Path file = FindingsArrow.write(IncidentFixture.incident(), dir.resolve("findings.arrow"));
    try (BufferAllocator allocator = new RootAllocator();
         FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
         ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
      ArrowType type = reader.getVectorSchemaRoot().getSchema().findField("time").getType();
      assertThat(type).isEqualTo(new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MILLISECOND, "UTC"));
      assertThat(reader.getVectorSchemaRoot().getSchema()).isEqualTo(FindingsArrow.SCHEMA);
    }
  }

  @Test
  void manyFindingsSpanSeveralBatches() throws IOException {
    List<Finding> many = new ArrayList<>();
    int count = FindingsArrow.BATCH_ROWS * 2 + 17;
    for (int i = 0; i < count; i++) {
      many.add(new Finding("rare_identifier_leak:bulk-" + i, FindingKind.RARE_IDENTIFIER_LEAK, Confidence.PROBABLE,
          "bulk-" + i, null, "tenant-" + (i % 7), Instant.parse("2026-09-01T00:00:00Z").plusSeconds(i), "prefill-a", null,
          List.of(new Source("src-" + i, null, "tenant-" + ((i + 1) % 7), i, List.of(), io.kvscope.model.finding.Attribution.SOLE)), Map.of()));
    }
    Report report = IncidentFixture.incident(many);
    List<Row> rows = read(FindingsArrow.write(report, dir.resolve("findings.arrow")));

    List<Row> bulk = rows.stream().filter(r -> ((String) r.get("id")).startsWith("rare_identifier_leak:bulk-")).toList();
    assertThat(bulk).hasSize(count);
    for (int i = 0; i < count; i += 997) {
      Row row = bulk.get(i);
      assertThat(row.get("request_id")).isEqualTo("bulk-" + i);
      assertThat(row.get("source_request_id")).isEqualTo("src-" + i);
      assertThat(row.get("source_matched_tokens")).isEqualTo((long) i);
      assertThat(row.get("time")).isEqualTo(Instant.parse("2026-09-01T00:00:00Z").plusSeconds(i).toEpochMilli());
    }
  }

  private static List<Row> read(Path file) throws IOException {
    List<Row> rows = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator();
         FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
         ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        for (int i = 0; i < root.getRowCount(); i++) {
          Map<String, Object> values = new HashMap<>();
          for (var vector : root.getFieldVectors()) {
            Object value;
            if (vector.isNull(i)) {
              value = null;
            } else if (vector instanceof VarCharVector v) {
              value = new String(v.get(i), java.nio.charset.StandardCharsets.UTF_8);
            } else if (vector instanceof BigIntVector v) {
              value = v.get(i);
            } else if (vector instanceof IntVector v) {
              value = v.get(i);
            } else if (vector instanceof BitVector v) {
              value = v.get(i) == 1;
            } else if (vector instanceof TimeStampMilliTZVector v) {
              value = v.get(i);
            } else if (vector instanceof org.apache.arrow.vector.complex.ListVector v) {
              value = v.getObject(i);
            } else {
              throw new AssertionError("unexpected vector " + vector.getClass());
            }
            values.put(vector.getName(), value);
          }
          rows.add(new Row(values));
        }
      }
    }
    return rows;
  }
}

package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Span;
import io.kvscope.analysis.impact.Report;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportJsonTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static Schema schema;

  @TempDir
  Path dir;

  @BeforeAll
  static void loadSchema() throws IOException {
    String text;
    try (InputStream in = ReportJson.class.getResourceAsStream(ReportJson.SCHEMA_RESOURCE)) {
      assertThat(in).as("schema on the classpath at " + ReportJson.SCHEMA_RESOURCE).isNotNull();
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    // The classpath copy is the repository's docs/report.schema.json, byte for byte.
    assertThat(text).isEqualTo(Files.readString(Path.of("..", "docs", "report.schema.json")));
    SchemaRegistryConfig config = SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build();
    schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, b -> b.schemaRegistryConfig(config))
        .getSchema(text, InputFormat.JSON);
  }

  @Test
  void roundTripIsLossless() throws IOException {
    Report report = FindingsDuckDbTest.withALoggedCopy(IncidentFixture.incident());
    Path file = ReportJson.write(report, dir.resolve("report.json"));

    Report back = ReportJson.read(file);

    assertThat(back).isEqualTo(report);
    // Spot checks that equality covered what matters, not just identity of empties.
    assertThat(back.findings()).hasSize(report.findings().size());
    assertThat(back.findings().getFirst().sources().getFirst().spans().getFirst())
        .isEqualTo(report.findings().getFirst().sources().getFirst().spans().getFirst());
    assertThat(back.findings().getFirst().time()).isEqualTo(Instant.parse("2026-08-27T09:14:03.250Z"));
    assertThat(back.parameters().get("ttft_fit")).isEqualTo(Map.of("slope_ms_per_token", 0.041, "intercept_ms", 85.0, "r2", 0.93));
    assertThat(back.coverage()).isEqualTo(report.coverage());
  }

  @Test
  void rewritingWhatWasReadGivesTheSameBytes() throws IOException {
    Path first = ReportJson.write(IncidentFixture.incident(), dir.resolve("a.json"));
    Path second = ReportJson.write(ReportJson.read(first), dir.resolve("b.json"));
    assertThat(Files.readString(second)).isEqualTo(Files.readString(first));
  }

  @Test
  void writtenReportValidatesAgainstTheSchema() throws IOException {
    Path file = ReportJson.write(FindingsDuckDbTest.withALoggedCopy(IncidentFixture.incident()), dir.resolve("report.json"));
    assertThat(Files.readString(file)).contains("\"response_copy\" : \"gateway retry.jsonl:4\"")
        .contains("\"source_copy\" : \"otlp spans.jsonl:9\"");
    List<Error> errors = schema.validate(Files.readString(file), InputFormat.JSON);
    assertThat(errors).isEmpty();
  }

  @Test
  void emptyReportValidatesToo() throws IOException {
    Report empty = new Report(Report.REPORT_VERSION, null, null,
        new io.kvscope.analysis.impact.Summary(0, 0, 0, 0, 0, 0, null, null, 0, 0, 0, 0, 0, 0),
        List.of(), List.of(), List.of(), List.of(), List.of(), Map.of(), null, Map.of());
    Path file = ReportJson.write(empty, dir.resolve("report.json"));
    assertThat(schema.validate(Files.readString(file), InputFormat.JSON)).isEmpty();
    assertThat(ReportJson.read(file)).isEqualTo(empty);
  }

  @Test
  void schemaRejectsWhatBreaksTheContract() throws IOException {
    Path file = ReportJson.write(IncidentFixture.incident(), dir.resolve("report.json"));
    ObjectNode good = (ObjectNode) MAPPER.readTree(file.toFile());

    ObjectNode badKind = good.deepCopy();
    ((ObjectNode) badKind.get("findings").get(0)).put("kind", "leak_of_some_sort");
    ObjectNode localTime = good.deepCopy();
    ((ObjectNode) localTime.get("windows").get(0)).put("start", "2026-08-26T22:00:00+02:00");
    ObjectNode missingCount = good.deepCopy();
    ((ObjectNode) missingCount.get("summary")).remove("leaked_responses");
    ObjectNode camelCase = good.deepCopy();
    ((ObjectNode) camelCase.get("findings").get(0)).set("requestId", camelCase.get("findings").get(0).get("request_id"));
    ObjectNode negative = good.deepCopy();
    ((ObjectNode) negative.get("tenants").get(0).get("as_victim")).put("tokens", -1);

    for (ObjectNode broken : List.of(badKind, localTime, missingCount, camelCase, negative)) {
      assertThat(schema.validate(MAPPER.writeValueAsString(broken), InputFormat.JSON)).isNotEmpty();
    }
  }

  @Test
  void namesAreSnakeCaseTimesAreUtcAndUnknownsAreNull() throws IOException {
    Path file = ReportJson.write(IncidentFixture.incident(), dir.resolve("report.json"));
    JsonNode root = MAPPER.readTree(file.toFile());

    assertThat(fieldNames(root)).containsExactly("report_version", "generated_at", "index", "summary", "windows",
        "findings", "tenants", "matrix", "timeline", "data_categories", "coverage", "parameters", "review", "evidence");
    assertThat(fieldNames(root.get("summary"))).containsExactly("leaked_responses",
        "leaked_responses_own_tenant_also_held", "source_requests",
        "source_requests_possible", "victim_tenants", "victim_tenants_possible", "recipient_tenants", "over_length_accepted", "prefill_underruns", "first_exposure", "last_exposure",
        "tokens_exposed", "same_tenant_reuse", "suspect_responses", "review_responses",
        "requests_with_disagreeing_copies");
    assertThat(root.get("summary").get("first_exposure").asText()).isEqualTo("2026-08-27T09:14:03.250Z");

    JsonNode config = find(root.get("findings"), "config_pool_below_context:prefill-a:1");
    assertThat(config.get("request_id").isNull()).isTrue();
    assertThat(config.get("tenant").isNull()).isTrue();
    assertThat(config.get("decode_node").isNull()).isTrue();
    assertThat(config.get("evidence").get("pool_tokens").asLong()).isEqualTo(681_280L);

    JsonNode openWindow = root.get("windows").get(3);
    assertThat(openWindow.get("kind").asText()).isEqualTo("vulnerable");
    assertThat(openWindow.get("end").isNull()).isTrue();

    JsonNode overlap = root.get("findings").get(0);
    assertThat(overlap.get("kind").asText()).isEqualTo("cross_tenant_overlap");
    assertThat(overlap.get("confidence").asText()).isEqualTo("confirmed");
    assertThat(fieldNames(overlap.get("sources").get(0))).containsExactly("request_id", "engine_rid", "tenant",
        "matched_tokens", "attribution", "spans");
    assertThat(overlap.get("sources").get(0).get("attribution").asText()).isEqualTo("sole");
    assertThat(overlap.get("sources").get(0).get("spans").get(0).get("source_field").asText()).isEqualTo("prompt_text");

    List<String> times = new ArrayList<>();
    collectTimes(root, times);
    assertThat(times).isNotEmpty().allMatch(t -> t.endsWith("Z") && Instant.parse(t) != null);
  }

  /**
   * The report's tenant table, matrix and summary are what the impact model computes from its
   * findings, sole attributions apart from candidates (the fixture's figures were worked out by
   * hand from its findings).
   */
  @Test
  void theImpactOfTheFindingsSeparatesSoleAttributionsFromCandidates() {
    Report report = IncidentFixture.incident();
    var tally = io.kvscope.analysis.impact.ImpactModel.tally(report.findings());
    assertThat(tally.tenants()).containsExactlyElementsOf(report.tenants());
    assertThat(tally.matrix()).containsExactlyElementsOf(report.matrix());
    var built = io.kvscope.analysis.impact.ImpactModel.build(new io.kvscope.analysis.impact.ImpactModel.Inputs(
        report.findings(), List.of(), Map.of(), null, Map.of(), "idx", report.generatedAt()));
    assertThat(built.summary().sourceRequests()).isEqualTo(3);
    assertThat(built.summary().sourceRequestsPossible()).isEqualTo(5);
    assertThat(built.summary().victimTenants()).isEqualTo(2);
    assertThat(built.summary().victimTenantsPossible()).isEqualTo(4);
    assertThat(built.summary().tokensExposed()).isEqualTo(report.summary().tokensExposed());
    assertThat(built.summary().leakedResponsesOwnTenantAlsoHeld()).isZero(); // no own request among any finding's sources
  }

  @Test
  void noPromptOrResponseTextIsWritten() throws IOException {
    String json = Files.readString(ReportJson.write(IncidentFixture.incident(), dir.resolve("report.json")));
    for (String secret : IncidentFixture.SECRET_WORDS) {
      assertThat(json).doesNotContain(secret);
    }
  }

  @Test
  void filesAreOwnerOnlyAndNoTemporaryFileIsLeft() throws IOException {
    Path out = dir.resolve("out");
    ReportJson.write(IncidentFixture.incident(), out.resolve("report.json"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve("report.json")))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rwx------");
    try (Stream<Path> files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("report.json");
    }
  }

  @Test
  void aFailedWriteKeepsTheOldFileAndLeavesNoTemporary() throws IOException {
    Path target = dir.resolve("report.json");
    ReportJson.write(IncidentFixture.incident(), target);
    String before = Files.readString(target);
    Finding unwritable = new Finding("x", FindingKind.TIMING_ANOMALY, Confidence.SUSPECT, "r", null, null, null, null, null,
        List.of(), Map.of("bad", new Object()));

    assertThatThrownBy(() -> ReportJson.write(IncidentFixture.incident(List.of(unwritable)), target))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a JSON value");

    assertThat(Files.readString(target)).isEqualTo(before);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("report.json");
    }
  }

  @Test
  void integersComeBackAsLongs() throws IOException {
    Finding withInts = new Finding("timing_anomaly:r1", FindingKind.TIMING_ANOMALY, Confidence.SUSPECT, "r1", null, "t",
        Instant.parse("2026-09-01T00:00:00Z"), "n", null, List.of(), Map.of("count", 7, "ratio", 0.5f, "at",
        Instant.parse("2026-09-01T00:00:01Z")));
    Report back = ReportJson.read(ReportJson.write(IncidentFixture.incident(List.of(withInts)), dir.resolve("r.json")));
    assertThat(back.findings().getLast().evidence())
        .isEqualTo(new Evidence.Other(Map.of("count", 7L, "ratio", 0.5, "at", "2026-09-01T00:00:01Z")));
  }

  @Test
  void readingRefusesOtherMajorVersionsAndBrokenValuesWithTheFileName() throws IOException {
    Path file = ReportJson.write(IncidentFixture.incident(), dir.resolve("report.json"));
    ObjectNode root = (ObjectNode) MAPPER.readTree(file.toFile());

    Path future = dir.resolve("future.json");
    Files.writeString(future, MAPPER.writeValueAsString(root.deepCopy().put("report_version", "2.0")));
    assertThatThrownBy(() -> ReportJson.read(future)).isInstanceOf(IOException.class)
        .hasMessageContaining("future.json").hasMessageContaining("2.0");

    ObjectNode badKind = root.deepCopy();
    ((ObjectNode) badKind.get("findings").get(1)).put("kind", "nonsense");
    Path broken = dir.resolve("broken.json");
    Files.writeString(broken, MAPPER.writeValueAsString(badKind));
    assertThatThrownBy(() -> ReportJson.read(broken)).isInstanceOf(IOException.class)
        .hasMessageContaining("broken.json");

    Path nullSummary = dir.resolve("null-summary.json");
    Files.writeString(nullSummary, MAPPER.writeValueAsString(root.deepCopy().putNull("summary")));
    assertThatThrownBy(() -> ReportJson.read(nullSummary)).isInstanceOf(IOException.class)
        .hasMessageContaining("null-summary.json").hasMessageContaining("summary");

    Path notJson = dir.resolve("notes.json");
    Files.writeString(notJson, "[1, 2, 3]");
    assertThatThrownBy(() -> ReportJson.read(notJson)).isInstanceOf(IOException.class)
        .hasMessageContaining("notes.json");
  }

  @Test
  void unknownFieldsOfANewerMinorVersionAreSkipped() throws IOException {
    Path file = ReportJson.write(IncidentFixture.incident(), dir.resolve("report.json"));
    ObjectNode root = (ObjectNode) MAPPER.readTree(file.toFile());
    root.put("report_version", "1.7");
    root.putObject("future_section").putArray("items").add(1).add(2);
    Path newer = dir.resolve("newer.json");
    Files.writeString(newer, MAPPER.writeValueAsString(root));

    Report back = ReportJson.read(newer);
    assertThat(back.reportVersion()).isEqualTo("1.7");
    assertThat(back.findings()).isEqualTo(IncidentFixture.incident().findings());
  }

  @Test
  void manyFindingsStreamThroughAndBack() throws IOException {
    List<Finding> many = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      many.add(new Finding("cross_tenant_overlap:bulk-" + i, FindingKind.CROSS_TENANT_OVERLAP, Confidence.PROBABLE,
          "bulk-" + i, null, "tenant-" + (i % 50), Instant.parse("2026-09-01T00:00:00Z").plusSeconds(i), "prefill-a",
          "decode-a", List.of(new Source("src-" + i, null, "tenant-" + ((i + 1) % 50), 30,
              List.of(new Span(10, 200, "response_text", 0, 190, 30)), io.kvscope.model.finding.Attribution.SOLE)),
          Map.of("verified_tokens", 30L)));
    }
    Report report = IncidentFixture.incident(many);
    Path file = ReportJson.write(report, dir.resolve("report.json"));
    assertThat(ReportJson.read(file)).isEqualTo(report);
    assertThat(schema.validate(Files.readString(file), InputFormat.JSON)).isEmpty();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static JsonNode find(JsonNode findings, String id) {
    for (JsonNode f : findings) {
      if (f.get("id").asText().equals(id)) {
        return f;
      }
    }
    throw new AssertionError("no finding " + id);
  }

  private static final Set<String> TIME_FIELDS = new HashSet<>(List.of("generated_at", "first_exposure", "last_exposure",
      "start", "end", "time", "hour"));

  private static void collectTimes(JsonNode node, List<String> times) {
    if (node.isObject()) {
      node.properties().forEach(e -> {
        if (TIME_FIELDS.contains(e.getKey()) && e.getValue().isTextual()) {
          times.add(e.getValue().asText());
        }
        collectTimes(e.getValue(), times);
      });
    } else if (node.isArray()) {
      node.forEach(child -> collectTimes(child, times));
    }
  }
}

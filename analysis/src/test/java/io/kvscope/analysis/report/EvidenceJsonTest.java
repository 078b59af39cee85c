package io.kvscope.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Report;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Typed evidence in report.json: written in the file's key order, read back as the same record. */
class EvidenceJsonTest {

  private static final Instant AT = Instant.parse("2026-09-01T00:00:00Z");
  private static final Evidence.LeakMechanism MECHANISM =
      new Evidence.LeakMechanism(List.of("over-length accepted"), true, List.of());

  private static final Evidence.Overlap OVERLAP = new Evidence.Overlap(List.of("foreign-kv: decoded over foreign KV"),
      MECHANISM, "ambiguous", 1, 2, 40, 3,
      List.of(new Evidence.Overlap.Passage(30, 10, 190, Confidence.PROBABLE, 2, 1, 4, List.of("rare: 1 tenant"))), 3_600,
      List.of("email"));
  private static final Evidence.Identifier IDENTIFIER = new Evidence.Identifier(List.of("text-alone: probable"), MECHANISM,
      "sole", List.of("email"), 1, List.of("email:3e6321f4"), Evidence.Identifier.NOTE);
  private static final Evidence.OverLength OVER_LENGTH = new Evidence.OverLength(200L, "prefill-a", null, 1L, 912_004L,
      912_004L, "estimated from the prompt's text", 681_280L, 681_280L, 1_048_576L, true, "912004 > 681280",
      "the request's own nodes", null);
  private static final Evidence.Underrun UNDERRUN = new Evidence.Underrun(200L, "prefill-a", "chat-1m", 700_000L,
      "reported by the gateway", 1L, 0L, 0.5, false,
      new io.kvscope.model.join.RoomRule.Ambiguity(4_711L, 3, 0).describe());
  private static final Evidence.Timing TIMING = new Evidence.Timing(null, null, null, 700_000L, 38_400L, 41L, 0.001);
  /** An unpatched engine whose version no record dated: the optional keys it says, and none of the others. */
  private static final Evidence.Config UNPATCHED = new Evidence.Config("prefill", AT, AT.minusSeconds(3), null, 681_280L,
      null, "0.5.19", "a workload template", null, "prefill-a.log:12", ">= 0.5.22", "0.5.19", null, false, null, null,
      null, null);

  @TempDir
  Path dir;

  @Test
  void everyEvidenceRecordReadsBackAsItself() throws IOException {
    List<Evidence> written = List.of(OVERLAP, IDENTIFIER, OVER_LENGTH, UNDERRUN, TIMING, UNPATCHED);
    List<FindingKind> kinds = List.of(FindingKind.CROSS_TENANT_OVERLAP, FindingKind.RARE_IDENTIFIER_LEAK,
        FindingKind.OVER_LENGTH_ACCEPTED, FindingKind.PREFILL_UNDERRUN, FindingKind.TIMING_ANOMALY,
        FindingKind.CONFIG_UNPATCHED_ENGINE);
    List<Finding> findings = new ArrayList<>();
    for (int i = 0; i < written.size(); i++) {
      findings.add(finding(kinds.get(i), "typed-" + i, written.get(i)));
    }

    List<Finding> back = roundTrip(findings);

    assertThat(back).filteredOn(f -> f.requestId() != null && f.requestId().startsWith("typed-"))
        .extracting(Finding::evidence).containsExactlyInAnyOrderElementsOf(written);
  }

  @Test
  void recordsWriteTheirKeysInTheReportsOrderAndLeaveOutOnlyTheOptionalNulls() throws IOException {
    JsonNode config = evidenceInFile(finding(FindingKind.CONFIG_UNPATCHED_ENGINE, "config", UNPATCHED));
    assertThat(names(config)).containsExactly("role", "epoch_start", "epoch_start_node_clock", "epoch_end", "pool_tokens",
        "context_length", "engine_version", "version_source", "source", "expected", "observed", "version_dated");
    assertThat(config.get("epoch_end").isNull()).as("a null the file always had").isTrue();
    assertThat(config.get("epoch_start").asText()).isEqualTo("2026-09-01T00:00:00Z");

    JsonNode overlap = evidenceInFile(finding(FindingKind.CROSS_TENANT_OVERLAP, "overlap", OVERLAP));
    assertThat(names(overlap)).containsExactly("confidence_reason", "mechanism", "attribution", "sources_sole",
        "sources_candidate", "longest_span_tokens", "passages_total", "passages", "newest_source_age_s", "categories");
    assertThat(names(overlap.get("mechanism"))).containsExactly("decoded_over_foreign_kv", "prompt_never_prefilled",
        "supporting");
    assertThat(names(overlap.get("passages").get(0))).containsExactly("words", "response_start", "response_end",
        "confidence", "candidates", "candidate_tenants", "tenants_in_index", "reasons");
    assertThat(overlap.get("passages").get(0).get("confidence").asText()).isEqualTo("probable");

    JsonNode request = evidenceInFile(finding(FindingKind.OVER_LENGTH_ACCEPTED, "request", OVER_LENGTH));
    assertThat(names(request)).startsWith("status_code", "prefill_node", "deployment", "prompt_tokens_reported")
        .endsWith("rejection_quoted", "limit_from");
    assertThat(request.get("deployment").isNull()).isTrue();
    JsonNode underrun = evidenceInFile(finding(FindingKind.PREFILL_UNDERRUN, "underrun", UNDERRUN));
    assertThat(names(underrun)).as("an ambiguous room is named where there was one").endsWith("engine_rejected",
        "room_ambiguous");
    assertThat(underrun.get("room_ambiguous").asText()).startsWith("bootstrap_room 4711 was logged with 3 rids");
  }

  @Test
  void aNonFiniteNumberIsWrittenAsNullAsForAnyEvidence() throws IOException {
    Evidence.Timing undefined = new Evidence.Timing(200L, "prefill-a", "chat-1m", 10L, 0L, 41L, Double.NaN);

    JsonNode timing = evidenceInFile(finding(FindingKind.TIMING_ANOMALY, "nan", undefined));

    assertThat(timing.get("ratio").isNull()).isTrue();
    assertThat(JsonValues.compact(ReportJson.fields(undefined))).endsWith("\"ratio\":null}");
  }

  @Test
  void evidenceOfAShapeNoRecordWritesLoadsAndWritesBackAsItWas() throws IOException {
    // A plug-in's (or an older writer's) timing evidence with a key the record does not have.
    Map<String, Object> foreign = new LinkedHashMap<>();
    foreign.put("uncached_prompt_tokens", 700_000L);
    foreign.put("expected_ttft_ms", 38_400L);
    foreign.put("residual_sigma", 7.9);
    foreign.put("note", null);
    Finding timing = finding(FindingKind.TIMING_ANOMALY, "foreign", new Evidence.Other(foreign));
    Report report = IncidentFixture.incident(List.of(timing));
    Path first = ReportJson.write(report, dir.resolve("first.json"));

    Report back = ReportJson.read(first);
    Path second = ReportJson.write(back, dir.resolve("second.json"));

    assertThat(back.findings().getLast().evidence()).isEqualTo(new Evidence.Other(foreign));
    assertThat(Files.readString(second)).isEqualTo(Files.readString(first));
  }

  @Test
  void evidenceWrittenAsPlainValuesInARecordsShapeReadsAsThatRecord() throws IOException {
    Map<String, Object> plain = new LinkedHashMap<>(ReportJson.fields(TIMING));
    assertThat(plain.keySet()).containsExactly("status_code", "prefill_node", "deployment", "uncached_prompt_tokens",
        "expected_ttft_ms", "observed_ttft_ms", "ratio");

    List<Finding> back = roundTrip(List.of(finding(FindingKind.TIMING_ANOMALY, "plain", new Evidence.Other(plain))));

    assertThat(back.getLast().evidence()).isEqualTo(TIMING);
  }

  private List<Finding> roundTrip(List<Finding> extra) throws IOException {
    return ReportJson.read(ReportJson.write(IncidentFixture.incident(extra), dir.resolve("report.json"))).findings();
  }

  private JsonNode evidenceInFile(Finding f) throws IOException {
    Path file = ReportJson.write(IncidentFixture.incident(List.of(f)), dir.resolve(f.requestId() + ".json"));
    JsonNode findings = new ObjectMapper().readTree(file.toFile()).get("findings");
    return findings.get(findings.size() - 1).get("evidence");
  }

  private static List<String> names(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static Finding finding(FindingKind kind, String requestId, Evidence evidence) {
    return new Finding(kind.id() + ":" + requestId, kind, Confidence.SUSPECT, requestId, null, "t", AT, "prefill-a", null,
        List.of(), evidence);
  }
}

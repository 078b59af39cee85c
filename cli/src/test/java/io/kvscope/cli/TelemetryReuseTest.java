package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.samples.truth.GroundTruth;
import io.kvscope.samples.truth.LeakTruth;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recipient of leaked data knows its own response ids, so its own telemetry can claim them:
 * five OTLP spans, in the GenAI conventions, whose {@code gen_ai.response.id} are that tenant's
 * leaked responses, each with a five-character prompt, a short harmless reply and a slow first
 * chunk. Ingested after the real logs, they must change no finding: they merge into the requests
 * under the gateway's word, and their disagreement is kept and reported: the claimed leaks' evidence
 * names the disagreeing copies, and the summary counts the requests.
 */
class TelemetryReuseTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  private static Report analyze(Path index, Path out) {
    CliTestSupport.Run analyze = CliTestSupport.run("analyze", "--index", index.toString(), "--out", out.toString(), "--quiet");
    assertThat(analyze.exitCode()).as(analyze.err()).isZero();
    try {
      return ReportJson.read(out.resolve("report.json"));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** A client span claiming {@code responseId}: openai_v2's shape, a 5-character prompt. */
  private static String forgedSpan(String responseId, String tenant, long startMs, int n) {
    ObjectNode span = JSON.createObjectNode();
    span.put("traceId", String.format("%032x", 0xfeed0000L + n));
    span.put("spanId", String.format("%016x", 0xbeef00L + n));
    span.put("name", "chat chat-1m");
    span.put("kind", 3);
    span.put("startTimeUnixNano", (startMs - 5_000) + "000000");
    span.put("endTimeUnixNano", (startMs + 60_000) + "000000");
    ArrayNode a = span.putArray("attributes");
    attr(a, "gen_ai.operation.name", "stringValue", "chat");
    attr(a, "gen_ai.request.model", "stringValue", "chat-1m");
    attr(a, "gen_ai.response.id", "stringValue", responseId);
    attr(a, "tenant.id", "stringValue", tenant);
    attr(a, "gen_ai.usage.input_tokens", "intValue", "5");
    attr(a, "gen_ai.usage.output_tokens", "intValue", "3");
    attr(a, "gen_ai.response.time_to_first_chunk", "doubleValue", 30.0);
    attr(a, "gen_ai.input.messages", "stringValue",
        "[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\"hello\"}]}]");
    attr(a, "gen_ai.output.messages", "stringValue",
        "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\"Hi there.\"}],\"finish_reason\":\"stop\"}]");
    ObjectNode batch = JSON.createObjectNode();
    ObjectNode rs = batch.putArray("resourceSpans").addObject();
    attr(rs.putObject("resource").putArray("attributes"), "service.name", "stringValue", "client-app");
    rs.putArray("scopeSpans").addObject().putArray("spans").add(span);
    return batch.toString();
  }

  private static void attr(ArrayNode attributes, String key, String type, Object value) {
    ObjectNode kv = attributes.addObject();
    kv.put("key", key);
    ObjectNode v = kv.putObject("value");
    if (value instanceof Double d) {
      v.put(type, d);
    } else {
      v.put(type, value.toString());
    }
  }

  @Test
  void telemetryReusingOneTenantsLeakedResponseIdsChangesNoFinding() throws Exception {
    Path incident = tmp.resolve("incident");
    Path index = tmp.resolve("index");
    assertThat(CliTestSupport.run("generate", "--out", incident.toString(), "--seed", "2", "--scale", "0.25x")
        .exitCode()).isZero();
    assertThat(CliTestSupport.run("ingest", incident.toString(), "--index", index.toString(), "--quiet").exitCode())
        .isZero();
    Report before = analyze(index, tmp.resolve("before"));
    GroundTruth truth = GroundTruth.load(incident.resolve("truth.json"));

    // The recipient tenant with the most leaked responses forges five spans over them.
    Map<String, List<LeakTruth>> byRecipient = truth.leakedResponses().stream()
        .collect(Collectors.groupingBy(LeakTruth::tenant));
    List<LeakTruth> leaks = byRecipient.values().stream().max(Comparator.comparingInt(List::size)).orElseThrow();
    String tenant = leaks.getFirst().tenant();
    List<String> lines = new ArrayList<>();
    for (int n = 0; n < 5; n++) {
      LeakTruth leak = leaks.get(n % leaks.size());
      lines.add(forgedSpan(leak.requestId(), tenant, leak.time().toEpochMilli(), n));
    }
    Path forged = incident.resolve("client-telemetry/otel-spans.jsonl");
    Files.createDirectories(forged.getParent());
    Files.write(forged, lines);
    CliTestSupport.Run again = CliTestSupport.run("ingest", incident.toString(), "--index", index.toString(), "--quiet");
    assertThat(again.exitCode()).as(again.err()).isZero();
    Report after = analyze(index, tmp.resolve("after"));

    assertThat(before.summary().leakedResponses()).isEqualTo(truth.summary().leakedResponses()).isPositive();
    // The same findings; the claimed leaks' evidence also names the disagreeing copies, and the summary counts them.
    java.util.Set<String> claimed = leaks.stream().limit(5).map(LeakTruth::requestId).collect(Collectors.toSet());
    assertThat(after.findings()).usingRecursiveFieldByFieldElementComparatorIgnoringFields("evidence")
        .isEqualTo(before.findings());
    for (int i = 0; i < before.findings().size(); i++) {
      Finding was = before.findings().get(i);
      Finding is = after.findings().get(i);
      if (is.evidence() instanceof Evidence.OfLeak leak && claimed.contains(is.requestId())) {
        assertThat(leak.confidenceReason()).as(is.id()).containsAll(((Evidence.OfLeak) was.evidence()).confidenceReason())
            .anyMatch(r -> r.startsWith("copies-disagree: 2 texts of this reply were logged (kept: gateway ")
                && r.endsWith("found in the kept text"));
      } else {
        assertThat(is).isEqualTo(was);
      }
    }
    assertThat(after.summary()).isEqualTo(before.summary().withRequestsWithDisagreeingCopies(claimed.size()));
    assertThat(after.tenants()).isEqualTo(before.tenants());
    assertThat(after.findings().stream().filter(f -> f.kind().isCrossTenantLeak()).map(f -> f.requestId()))
        .contains(leaks.getFirst().requestId());
    // Merged, not dropped: the summary says so and names the disagreement.
    assertThat(again.out()).contains("records merged into requests already read: 5 ")
        .contains("requests whose records disagree: " + leaks.stream().limit(5).map(LeakTruth::requestId).distinct().count());
    assertThat(after.findings()).filteredOn(f -> f.kind() == FindingKind.OVER_LENGTH_ACCEPTED).isNotEmpty();
  }
}

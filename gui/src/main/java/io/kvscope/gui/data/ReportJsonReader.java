package io.kvscope.gui.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvscope.analysis.finding.Confidence;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.analysis.finding.Source;
import io.kvscope.analysis.finding.Span;
import io.kvscope.analysis.impact.Coverage;
import io.kvscope.analysis.impact.HourCount;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.impact.Window;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads report.json (SPEC.md) back into a {@link Report}. Field names are the snake_case forms of
 * the {@link Report} record components ({@code findings[].sources[].spans[].response_start}, ...);
 * times are ISO-8601 instants (epoch milliseconds are accepted too). Fields a writer left out read
 * as empty or zero, so an older or smaller report still opens; a report whose major version is
 * newer than this reader's is refused rather than misread.
 */
public final class ReportJsonReader {

  private final ObjectMapper mapper = new ObjectMapper();

  public Report read(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return read(mapper.readTree(in), file.toString());
    }
  }

  Report read(JsonNode root, String origin) throws IOException {
    if (root == null || !root.isObject()) {
      throw new IOException(origin + ": not a report.json (expected a JSON object)");
    }
    String version = root.path("report_version").asText(Report.REPORT_VERSION);
    if (major(version) > major(Report.REPORT_VERSION)) {
      throw new IOException(origin + ": report_version " + version + " is newer than this kvscope reads ("
          + Report.REPORT_VERSION + "); open it with a newer kvscope");
    }
    try {
      return new Report(
          version,
          instant(root.get("generated_at")),
          text(root, "index"),
          summary(root.path("summary")),
          list(root.get("windows"), ReportJsonReader::window),
          list(root.get("findings"), ReportJsonReader::finding),
          list(root.get("tenants"), ReportJsonReader::tenant),
          list(root.get("matrix"), n -> new MatrixCell(text(n, "source_tenant"), text(n, "recipient_tenant"),
              n.path("responses").asLong(), n.path("tokens").asLong())),
          list(root.get("timeline"), n -> new HourCount(instant(n.get("hour")), n.path("exposures").asLong(),
              n.path("over_length_accepted").asLong(), n.path("prefill_underruns").asLong(),
              n.path("requests").asLong())),
          longs(root.get("data_categories")),
          coverage(root.path("coverage")),
          values(root.get("parameters")));
    } catch (IllegalArgumentException | DateTimeParseException e) {
      throw new IOException(origin + ": malformed report.json: " + e.getMessage(), e);
    }
  }

  private static int major(String version) {
    try {
      return Integer.parseInt(version.split("\\.", 2)[0]);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static Summary summary(JsonNode n) {
    return new Summary(n.path("leaked_responses").asLong(), n.path("source_requests").asLong(),
        n.path("victim_tenants").asLong(), n.path("recipient_tenants").asLong(),
        n.path("over_length_accepted").asLong(), n.path("prefill_underruns").asLong(),
        instant(n.get("first_exposure")), instant(n.get("last_exposure")), n.path("tokens_exposed").asLong(),
        n.path("same_tenant_reuse").asLong(), n.path("suspect_responses").asLong());
  }

  private static Window window(JsonNode n) {
    return new Window(Window.Kind.valueOf(n.path("kind").asText().toUpperCase(java.util.Locale.ROOT)),
        text(n, "node"), text(n, "deployment"), instant(n.get("start")), instant(n.get("end")),
        n.path("count").asLong(), text(n, "reason"));
  }

  private static Finding finding(JsonNode n) {
    return new Finding(text(n, "id"), FindingKind.fromId(n.path("kind").asText()),
        Confidence.fromId(n.path("confidence").asText()), text(n, "request_id"), text(n, "engine_rid"),
        text(n, "tenant"), instant(n.get("time")), text(n, "node"), text(n, "decode_node"),
        list(n.get("sources"), ReportJsonReader::source), values(n.get("evidence")));
  }

  private static Source source(JsonNode n) {
    return new Source(text(n, "request_id"), text(n, "engine_rid"), text(n, "tenant"),
        n.path("matched_tokens").asLong(), list(n.get("spans"), s -> new Span(
            s.path("response_start").asInt(), s.path("response_end").asInt(), text(s, "source_field"),
            s.path("source_start").asInt(), s.path("source_end").asInt(), s.path("tokens").asInt())));
  }

  private static TenantImpact tenant(JsonNode n) {
    JsonNode v = n.path("as_victim");
    JsonNode r = n.path("as_recipient");
    return new TenantImpact(text(n, "tenant"),
        new TenantImpact.AsVictim(v.path("requests").asLong(), v.path("recipients").asLong(), v.path("tokens").asLong()),
        new TenantImpact.AsRecipient(r.path("responses").asLong(), r.path("sources").asLong(), r.path("tokens").asLong()));
  }

  private static Coverage coverage(JsonNode n) {
    return new Coverage(list(n.get("gaps"), g -> new Coverage.Gap(text(g, "node"), instant(g.get("start")),
            instant(g.get("end")), text(g, "reason"))),
        n.path("requests").asLong(), n.path("requests_without_bodies").asLong(),
        n.path("requests_without_engine_logs").asLong());
  }

  private static <T> List<T> list(JsonNode array, Function<JsonNode, T> item) {
    List<T> out = new ArrayList<>();
    if (array != null && array.isArray()) {
      array.forEach(n -> out.add(item.apply(n)));
    }
    return out;
  }

  private static String text(JsonNode n, String field) {
    JsonNode value = n.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static Instant instant(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    return n.isNumber() ? Instant.ofEpochMilli(n.asLong()) : Instant.parse(n.asText());
  }

  private static Map<String, Long> longs(JsonNode n) {
    Map<String, Long> out = new LinkedHashMap<>();
    if (n != null && n.isObject()) {
      n.properties().forEach(e -> out.put(e.getKey(), e.getValue().asLong()));
    }
    return out;
  }

  /** JSON-ready values as plain Java: maps, lists, strings, longs, doubles, booleans. */
  private static Map<String, Object> values(JsonNode n) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (n != null && n.isObject()) {
      n.properties().forEach(e -> {
        Object value = value(e.getValue());
        if (value != null) {
          out.put(e.getKey(), value);
        }
      });
    }
    return out;
  }

  private static Object value(JsonNode n) {
    if (n == null || n.isNull()) {
      return null;
    }
    if (n.isObject()) {
      return values(n);
    }
    if (n.isArray()) {
      List<Object> out = new ArrayList<>();
      n.forEach(item -> out.add(value(item)));
      return out;
    }
    if (n.isIntegralNumber()) {
      return n.asLong();
    }
    if (n.isNumber()) {
      return n.asDouble();
    }
    if (n.isBoolean()) {
      return n.asBoolean();
    }
    return n.asText();
  }
}

package io.kvscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plants unique marker text in prompts, responses, broken lines and trace attributes, runs every
 * command a responder uses (ingest with bad lines, search, analyze, report, audit) as real child
 * processes, and searches everything they wrote (stdout, stderr, reports, bundles) for the
 * markers: they may appear only where {@code --reveal} was given, and there they must (the
 * positive control proves the search would see a leak). Also: owner-only files, per-tenant bundles
 * that name no other tenant, and no network use (the system calls of every run, traced).
 */
class SensitiveDataHygieneTest {

  /** Text only the planted records contain; none of it is an id, a tenant or a format keyword. */
  static final String PROMPT_MARKER = "ZqPromptMarker7Kx";
  static final String RESPONSE_MARKER = "ZqResponseMarker9Lm";
  static final String BAD_LINE_MARKER = "ZqBadLineMarker3Tp";
  static final String TOKEN_MARKER = "ZqTokenMarker5Rw";
  static final String EMAIL_MARKER = "zq.planted.person@victim-corp.example";
  static final String OTLP_MARKER = "ZqOtlpMarker2Nd";
  static final String ENGINE_MARKER = "ZqEngineMarker8Vb";
  static final List<String> MARKERS = List.of(PROMPT_MARKER, RESPONSE_MARKER, BAD_LINE_MARKER, TOKEN_MARKER,
      EMAIL_MARKER, OTLP_MARKER, ENGINE_MARKER);

  static final String VICTIM = "org-victim";
  static final String RECIPIENT = "org-recipient";

  @TempDir Path tmp;
  Path in;
  Path index;
  /** Everything the redacted runs printed, by run name. */
  final Map<String, String> printed = new LinkedHashMap<>();
  final List<Path> traces = new ArrayList<>();

  @BeforeEach
  void writeIncident() throws Exception {
    in = tmp.resolve("in");
    index = tmp.resolve("index");
    String passage = "the merger memo for " + PROMPT_MARKER + " says the board approved the sale of the northern plant "
        + "to the buyer for forty million before the audit and contact " + EMAIL_MARKER
        + " with the signed term sheet and the escrow letter by friday morning";
    StringBuilder gateway = new StringBuilder();
    long base = FleetFiles.BASE;
    // Background traffic from four tenants, so that timing fits and tenant frequencies are real.
    for (int i = 300; i < 340; i++) {
      gateway.append(litellm(i, "org-bg-" + i % 4, base + (i - 300) * 60_000L, "routine question number " + i,
          "routine answer number " + i)).append('\n');
    }
    gateway.append(litellm(101, VICTIM, base + 3_000_000, "Please summarise: " + passage,
        "Summary: " + RESPONSE_MARKER + " a sale was approved")).append('\n');
    gateway.append(litellm(202, RECIPIENT, base + 3_600_000, "What is the weather like on the coast today",
        "Sunny. Also " + passage + " regards")).append('\n');
    // Broken lines that carry planted text: cut mid-string, and an unquoted token a JSON parser quotes.
    gateway.append("{\"id\":\"gw-900\",\"call_type\":\"acompletion\",\"messages\":[{\"role\":\"user\",\"content\":\""
        + BAD_LINE_MARKER + " and more\n");
    gateway.append("{\"id\":\"gw-901\",\"call_type\":\"acompletion\",\"model\":" + TOKEN_MARKER + "}\n");
    FleetFiles.write(in.resolve("gateway/litellm.jsonl"), gateway.toString(), false);

    String otlp = FleetFiles.otlp(500, "org-bg-0", 900)
        .replace("{\"key\":\"tenant.id\"", "{\"key\":\"gen_ai.prompt\",\"value\":{\"stringValue\":\"" + OTLP_MARKER
            + " traced prompt\"}},{\"key\":\"tenant.id\"");
    String badOtlp = FleetFiles.otlp(501, "org-bg-1", 900)
        .replace("{\"intValue\":\"7\"}", "{\"intValue\":\"" + OTLP_MARKER + "\"}");
    FleetFiles.write(in.resolve("traces/spans.json"), otlp + "\n" + badOtlp + "\n", false);

    StringBuilder decode = new StringBuilder(FleetFiles.sglangStartup(base - 3_600_000, "decode", 681_280, 1_048_576));
    StringBuilder prefill = new StringBuilder(FleetFiles.sglangStartup(base - 3_600_000, "prefill", 681_280, 1_048_576));
    for (int i : new int[] {101, 202}) {
      long at = base + (i == 101 ? 3_000_000 : 3_600_000);
      prefill.append(FleetFiles.sglangTimeStats(at, i, "prefill", i == 202 ? 1 : 60));
      decode.append(FleetFiles.sglangTimeStats(at, i, "decode", 60));
    }
    for (int i = 300; i < 340; i++) {
      decode.append(FleetFiles.sglangTimeStats(base + (i - 300) * 60_000L, i, "decode", 8));
    }
    decode.append("[2026-08-28 11:00:00.000 TP0] Receive: obj=GenerateReqInput(rid='rid-202', text='" + ENGINE_MARKER
        + " cut in the middle of the prompt\n");
    FleetFiles.write(in.resolve("engine/sglang-decode-0.log"), decode.toString(), false);
    FleetFiles.write(in.resolve("engine/sglang-prefill-0.log"), prefill.toString(), false);
  }

  @Test
  void plantedTextAppearsOnlyWhereRevealedAndFilesAreOwnerOnly() throws Exception {
    Path reports = tmp.resolve("reports");
    Path rerendered = tmp.resolve("rerendered");
    Path revealed = tmp.resolve("revealed");

    run("ingest", "ingest", in.toString(), "--index", index.toString());
    run("search", "search", "--index", index.toString(), "tenant:" + VICTIM + " OR tenant:" + RECIPIENT);
    run("search-json", "search", "--index", index.toString(), "--json", "*:*", "--limit", "100");
    run("search-events", "search", "--index", index.toString(), "doc_type:engine_event OR doc_type:checkpoint", "--limit", "100");
    run("search-bad-query", "search", "--index", index.toString(), "prompt_text:(unclosed");
    run("analyze", "analyze", "--index", index.toString(), "--out", reports.toString());
    run("report", "report", reports.resolve("report.json").toString(), "--index", index.toString(), "--out", rerendered.toString());
    run("audit", "audit", "--index", index.toString());
    ChildKvScope.Result shownSearch = child("search-reveal", "search", "--index", index.toString(), "request_id:gw-101", "--reveal");
    ChildKvScope.Result shownAnalyze = child("analyze-reveal", "analyze", "--index", index.toString(), "--out", revealed.toString(), "--reveal");

    // The positive controls: the incident is found, and revealed output does carry the planted text.
    assertThat(printed.get("analyze")).contains("leaked responses (cross-tenant, confirmed+probable): 1");
    assertThat(shownSearch.out()).contains(PROMPT_MARKER);
    assertThat(readAll(revealed)).contains(PROMPT_MARKER);
    assertThat(printed.get("ingest")).contains("bad records: ")
        .contains(in.resolve("gateway/litellm.jsonl") + ":43: ").contains(in.resolve("gateway/litellm.jsonl") + ":44: ")
        .contains(in.resolve("traces/spans.json") + ":2: ");
    assertThat(printed.get("search-json")).contains("[redacted ");

    // Nothing redacted leaks: all output streams and every file under every report folder.
    Map<String, String> haystacks = new LinkedHashMap<>(printed);
    haystacks.put("reports", readAll(reports));
    haystacks.put("rerendered", readAll(rerendered));
    haystacks.put("analyze-reveal stdout/stderr", shownAnalyze.out() + shownAnalyze.err());
    for (Map.Entry<String, String> haystack : haystacks.entrySet()) {
      String text = haystack.getValue().toLowerCase(Locale.ROOT);
      for (String marker : MARKERS) {
        assertThat(text).as("%s must not contain the planted %s", haystack.getKey(), marker)
            .doesNotContain(marker.toLowerCase(Locale.ROOT));
      }
    }

    // The quarantine holds raw lines (that is its job) inside the owner-only index.
    Path quarantine;
    try (Stream<Path> files = Files.list(index.resolve("quarantine"))) {
      quarantine = files.findFirst().orElseThrow();
    }
    assertThat(Files.readString(quarantine)).contains(BAD_LINE_MARKER);
    for (Path root : List.of(index, reports, rerendered, revealed)) {
      assertOwnerOnly(root);
    }

    // Bundles: each tenant's bundle names no other tenant and none of their requests.
    Map<String, List<String>> own = Map.of(VICTIM, List.of("gw-101", "rid-101"), RECIPIENT, List.of("gw-202", "rid-202"));
    for (Path root : List.of(reports, revealed)) {
      for (Map.Entry<String, List<String>> tenant : own.entrySet()) {
        Path bundle = root.resolve("bundles").resolve(tenant.getKey());
        String text = readAll(bundle);
        assertThat(text).as("bundle of %s", tenant.getKey()).contains(tenant.getValue().get(0));
        for (Map.Entry<String, List<String>> other : own.entrySet()) {
          if (!other.getKey().equals(tenant.getKey())) {
            assertThat(text).as("bundle of %s", tenant.getKey()).doesNotContain(other.getKey())
                .doesNotContain(other.getValue().get(0)).doesNotContain(other.getValue().get(1));
          }
        }
        for (String marker : MARKERS) {
          assertThat(text.toLowerCase(Locale.ROOT)).as("bundle of %s (even with --reveal)", tenant.getKey())
              .doesNotContain(marker.toLowerCase(Locale.ROOT));
        }
      }
    }

    // No network: no command connected, bound, listened or sent anywhere (see NetworkTrace). The
    // traces do record the JVM's start-up socket probe, so they would show real use.
    assertThat(traces).as("strace is %s", NetworkTrace.available() ? "available" : "missing: no network check")
        .hasSize(NetworkTrace.available() ? printed.size() + 2 : 0);
    for (Path trace : traces) {
      assertThat(Files.readString(trace)).as("%s traced network calls", trace.getFileName()).contains("socket(");
      assertThat(NetworkTrace.violations(trace)).as("network use in %s", trace.getFileName()).isEmpty();
    }
  }

  private void run(String name, String... args) throws Exception {
    ChildKvScope.Result result = child(name, args);
    if (!name.equals("search-bad-query") && !name.equals("audit")) {
      assertThat(result.exitCode()).as("%s: %s", name, result.err()).isZero();
    }
    assertThat(result.err()).as(name).doesNotContain("\tat ");
    printed.put(name, result.out() + "\n" + result.err());
  }

  private ChildKvScope.Result child(String name, String... args) throws Exception {
    Path trace = tmp.resolve("trace-" + name + ".txt");
    List<String> wrapper = NetworkTrace.available() ? NetworkTrace.wrapper(trace) : List.of();
    if (!wrapper.isEmpty()) {
      traces.add(trace);
    }
    return ChildKvScope.run(tmp, name, wrapper, "512m", 5, args);
  }

  private static String readAll(Path root) throws Exception {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(file)) {
          all.append(new String(Files.readAllBytes(file), StandardCharsets.UTF_8)).append('\n');
          if (file.getFileName().toString().endsWith(".arrow")) {
            all.append(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).append('\n');
          }
        }
      }
    }
    return all.toString();
  }

  private static void assertOwnerOnly(Path root) throws Exception {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        String perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
        assertThat(perms).as("%s", p).isEqualTo(Files.isDirectory(p) ? "rwx------" : "rw-------");
      }
    }
  }

  /** A LiteLLM payload with chosen prompt and response text. */
  static String litellm(int i, String tenant, long startMillis, String prompt, String response) {
    double start = startMillis / 1000.0;
    return "{\"id\":\"gw-" + i + "\",\"call_type\":\"acompletion\",\"status\":\"success\",\"model\":\"qwen3\","
        + "\"model_group\":\"qwen3-long\",\"startTime\":" + start + ",\"endTime\":" + (start + 2)
        + ",\"completionStartTime\":" + (start + 0.3) + ",\"prompt_tokens\":" + (10 + prompt.length() / 4)
        + ",\"completion_tokens\":" + (5 + response.length() / 4) + ",\"metadata\":{\"user_api_key_org_id\":\"" + tenant + "\"},"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}],"
        + "\"response\":{\"id\":\"chatcmpl-rid-" + i + "\",\"choices\":[{\"finish_reason\":\"stop\","
        + "\"message\":{\"content\":\"" + response + "\"}}]}}";
  }

  static Instant at(long millis) {
    return Instant.ofEpochMilli(millis);
  }
}

package io.kvscope.gui;

import io.kvscope.model.finding.Attribution;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.model.finding.Source;
import io.kvscope.model.finding.Span;
import io.kvscope.analysis.impact.Coverage;
import io.kvscope.analysis.impact.HourCount;
import io.kvscope.analysis.impact.MatrixCell;
import io.kvscope.analysis.impact.Report;
import io.kvscope.analysis.impact.Summary;
import io.kvscope.analysis.impact.TenantImpact;
import io.kvscope.analysis.impact.Window;
import io.kvscope.index.doc.Documents;
import io.kvscope.model.join.EngineFacts;
import io.kvscope.index.store.IndexStore;
import io.kvscope.index.doc.Schema;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.record.RequestRecord;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A small KV-leak incident written for real: request documents (with joined engine facts) and
 * config epochs in a Lucene index on disk, and a {@link Report} whose findings point at those
 * requests with span offsets found in the very texts written. The ground truth (who leaked what
 * to whom, where in each text) is known here by construction, never computed by the code under test.
 *
 * <p>Leak 0 is always the same: acme's prompt leaks to globex through three spans of the prompt,
 * so tests can aim at it; the rest are random but seeded.
 */
public final class IncidentFixture {

  public static final Instant T0 = Instant.parse("2026-08-27T06:00:00Z");
  public static final Instant FIX = Instant.parse("2026-09-09T18:00:00Z");
  public static final String[] TENANTS = {"acme", "globex", "initech", "umbrella", "hooli", "vandelay", "wonka", "stark"};
  public static final long POOL = 681_280;
  public static final long CONTEXT = 1_048_576;
  /** The record of the one logged copy of a prompt the index holds: the first leak's source's ({@link #promptCopy}). */
  public static final String PROMPT_COPY_FROM = "gateway drafts.jsonl:3";
  private static final String[] WORDS = ("the of quarterly report customer account pipeline forecast summary draft "
      + "meeting notes revenue contract renewal support ticket migration cluster latency budget review plan "
      + "invoice schedule roadmap partner onboarding security audit policy update release feature request "
      + "analysis region team manager please attach figures table appendix").split(" ");

  /** One generated leak: the two requests, the spans found in their texts, and the finding ids. */
  public record Leak(RequestRecord source, RequestRecord recipient, String sourceField, List<Span> spans,
      List<String> secrets, FindingKind kind, String findingId) {}

  public record Incident(Report report, List<RequestRecord> requests, List<ConfigEpoch> epochs, List<Leak> leaks) {

    public Leak first() {
      return leaks.get(0);
    }

    public Finding finding(String id) {
      return report.findings().stream().filter(f -> f.id().equals(id)).findFirst().orElseThrow();
    }
  }

  private final Random random;
  private final List<RequestRecord> requests = new ArrayList<>();
  private final Map<String, EngineFacts> facts = new HashMap<>();
  private final List<ConfigEpoch> epochs = new ArrayList<>();
  private final List<Finding> findings = new ArrayList<>();
  private final List<Leak> leaks = new ArrayList<>();
  private final List<RequestRecord> overLengthFindings = new ArrayList<>();
  private int serial;

  private IncidentFixture(long seed) {
    random = new Random(seed);
  }

  /** Writes an incident with {@code leakCount} leaks (at least 1) into {@code index}. */
  public static Incident write(Path index, int leakCount, long seed) throws IOException {
    IncidentFixture fixture = new IncidentFixture(seed);
    fixture.generate(Math.max(1, leakCount));
    Incident incident = fixture.incident(index);
    try (IndexStore store = IndexStore.open(index)) {
      for (ConfigEpoch e : fixture.epochs) {
        store.put(Documents.of(e));
      }
      for (RequestRecord r : fixture.requests) {
        EngineFacts f = fixture.facts.get(r.requestId());
        store.put(f == null ? Documents.of(r) : Documents.linkedRequest(r, f));
      }
      // The first leak's source was logged twice, with another prompt the second time.
      RequestRecord source = incident.first().source();
      store.put(Documents.textCopy(io.kvscope.ingest.merge.RequestMerge.keyOf(source), new io.kvscope.ingest.merge.TextCopy(
          Schema.PROMPT_TEXT, promptCopy(incident.first()), PROMPT_COPY_FROM, "gateway gateway.jsonl:1", false)));
      store.commit();
    }
    return incident;
  }

  /** The text of the first leak's source's logged prompt copy: its second secret in other words. */
  public static String promptCopy(Leak leak) {
    return "An earlier draft, logged by a retry: " + leak.secrets().get(1) + " (end of the draft)";
  }

  // ---------------------------------------------------------------- generation

  private ConfigEpoch prefill0;
  private ConfigEpoch prefill0Fixed;
  private ConfigEpoch prefill1;
  private ConfigEpoch decode0;
  private ConfigEpoch decode1;

  private void generate(int leakCount) {
    long start = T0.minus(Duration.ofHours(6)).toEpochMilli();
    prefill0 = epoch("prefill-0", NodeRole.PREFILL, start, POOL, CONTEXT, "0.5.20", false, false, false, 1);
    prefill0Fixed = epoch("prefill-0", NodeRole.PREFILL, FIX.toEpochMilli(), 1_400_000L, CONTEXT, "0.5.22", true, true, true, 9120);
    prefill1 = epoch("prefill-1", NodeRole.PREFILL, start, POOL, CONTEXT, "0.5.21", false, null, false, 1);
    // No deployment record covers decode-0: its engine version is unknown (SGLang logs none).
    decode0 = epoch("decode-0", NodeRole.DECODE, start, 2_200_000L, CONTEXT, null, null, false, true, 1);
    decode1 = epoch("decode-1", NodeRole.DECODE, start, 2_200_000L, CONTEXT, "0.5.22", true, true, true, 1);
    epochs.addAll(List.of(prefill0, prefill0Fixed, prefill1, decode0, decode1));

    Duration span = Duration.between(T0, FIX.minus(Duration.ofHours(2)));
    leaks.add(leak(0, "acme", "globex", T0.plus(Duration.ofHours(30)), FindingKind.CROSS_TENANT_OVERLAP, 3,
        Schema.PROMPT_TEXT));
    for (int i = 1; i < leakCount; i++) {
      String victim = TENANTS[weighted(TENANTS.length)];
      String recipient;
      do {
        recipient = TENANTS[random.nextInt(TENANTS.length)];
      } while (recipient.equals(victim));
      Instant when = T0.plus(Duration.ofMinutes(burstyMinute(span.toMinutes())));
      FindingKind kind = switch (random.nextInt(10)) {
        case 0 -> FindingKind.CANARY_LEAK;
        case 1, 2 -> FindingKind.RARE_IDENTIFIER_LEAK;
        default -> FindingKind.CROSS_TENANT_OVERLAP;
      };
      leaks.add(leak(i, victim, recipient, when, kind, 1 + random.nextInt(2),
          random.nextInt(4) == 0 ? Schema.RESPONSE_TEXT : Schema.PROMPT_TEXT));
    }
    // Over-length prompts that were answered from pages holding nothing recognisable: admitted and
    // underrun, but no leak to prove.
    for (int i = 0; i < leakCount / 3; i++) {
      Instant when = T0.plus(Duration.ofMinutes(burstyMinute(span.toMinutes())));
      overLength(TENANTS[random.nextInt(TENANTS.length)], when);
    }
    // Healthy traffic around the leaks, and a few fast-but-fine requests the timing analysis doubted.
    for (int i = 0; i < leakCount * 3; i++) {
      Instant when = T0.plus(Duration.ofMinutes(random.nextLong(Duration.between(T0, FIX.plus(Duration.ofDays(1))).toMinutes())));
      RequestRecord r = benign(TENANTS[random.nextInt(TENANTS.length)], when);
      if (i % 9 == 4) {
        findings.add(new Finding("timing_anomaly:" + r.requestId(), FindingKind.TIMING_ANOMALY, Confidence.SUSPECT,
            r.requestId(), r.engineRid(), r.tenant(), when, r.prefillNode(), r.decodeNode(), List.of(),
            Map.of("observed_ttft_ms", r.ttftMillis(), "expected_ttft_ms", 2_400L + random.nextInt(800),
                "cached_tokens", 0L)));
      }
    }
    for (ConfigEpoch e : List.of(prefill0, prefill1)) {
      findings.add(new Finding("config_pool_below_context:" + e.node(), FindingKind.CONFIG_POOL_BELOW_CONTEXT,
          Confidence.CONFIRMED, null, null, null, Instant.ofEpochMilli(e.start()), e.node(), null, List.of(),
          Map.of("pool_tokens", e.poolTokens(), "context_length", e.contextLength(), "source",
              e.sourceFile() + ":" + e.sourceLine())));
    }
    for (ConfigEpoch e : List.of(prefill0, prefill1)) {
      findings.add(new Finding("config_unpatched_engine:" + e.node(), FindingKind.CONFIG_UNPATCHED_ENGINE,
          Confidence.CONFIRMED, null, null, null, Instant.ofEpochMilli(e.start()), e.node(), null, List.of(),
          Map.of("engine_version", e.engineVersion(), "fixed_version", "0.5.22")));
    }
    findings.add(new Finding("config_engine_version_unknown:" + decode0.node(), FindingKind.CONFIG_ENGINE_VERSION_UNKNOWN,
        Confidence.SUSPECT, null, null, null, Instant.ofEpochMilli(decode0.start()), decode0.node(), null, List.of(),
        new Evidence.Config("decode", Instant.ofEpochMilli(decode0.start()), Instant.ofEpochMilli(decode0.start()), null,
            decode0.poolTokens(), decode0.contextLength(), "unknown", null, null, decode0.sourceFile() + ":" + decode0.sourceLine(),
            ">= 0.5.22", "unknown", null, null, "no deployment record covers this epoch",
            "a deployment record naming the engine release: kubectl get pod -o yaml, a saved /get_server_info response,"
            + " or a manifest row", false, null)));
  }

  private void overLength(String tenant, Instant when) {
    long claimed = POOL + 20_000 + random.nextInt(360_000);
    String prefillNode = random.nextBoolean() ? "prefill-0" : "prefill-1";
    String decodeNode = random.nextBoolean() ? "decode-0" : "decode-1";
    RequestRecord r = request(tenant, when, filler(2_000 + random.nextInt(2_000)), filler(300 + random.nextInt(600)),
        prefillNode, decodeNode, claimed, 1L, 180L + random.nextInt(200));
    facts.put(r.requestId(), facts(r, true));
    overLengthFindings.add(r);
    findings.add(new Finding("over_length_accepted:" + r.requestId(), FindingKind.OVER_LENGTH_ACCEPTED,
        Confidence.PROBABLE, r.requestId(), r.engineRid(), tenant, when, prefillNode, decodeNode, List.of(),
        Map.of("prompt_tokens", claimed, "limit", POOL, "status_code", 200L)));
    findings.add(new Finding("prefill_underrun:" + r.requestId(), FindingKind.PREFILL_UNDERRUN,
        Confidence.PROBABLE, r.requestId(), r.engineRid(), tenant, when, prefillNode, decodeNode, List.of(),
        Map.of("engine_input_len", 1L, "prompt_tokens", claimed, "observed_ttft_ms", r.ttftMillis(),
            "expected_ttft_ms", claimed / 9)));
  }

  /** Leaks cluster in a few busy days, as the incident's did. */
  private long burstyMinute(long total) {
    double u = random.nextDouble();
    double centre = new double[] {0.18, 0.45, 0.52, 0.8}[random.nextInt(4)];
    double x = centre + (u - 0.5) * 0.16 + random.nextGaussian() * 0.05;
    return (long) (Math.max(0.0, Math.min(0.999, x)) * total);
  }

  /** Earlier tenants are bigger customers and leak more. */
  private int weighted(int n) {
    return Math.min(n - 1, (int) Math.floor(Math.abs(random.nextGaussian()) * n / 2.2));
  }

  private Leak leak(int i, String victim, String recipient, Instant when, FindingKind kind, int spanCount,
      String sourceField) {
    List<String> secrets = new ArrayList<>();
    for (int s = 0; s < spanCount; s++) {
      secrets.add(secret(i, s, victim, kind));
    }
    // The source: its data sits inside ordinary text (deep inside a long prompt for leak 0).
    StringBuilder sourceText = new StringBuilder(filler(i == 0 ? 9_000 : 300 + random.nextInt(3_000)));
    for (String secret : secrets) {
      sourceText.append(' ').append(secret).append(' ').append(filler(i == 0 ? 2_500 : 200 + random.nextInt(800)));
    }
    Instant sourceTime = when.minus(Duration.ofMinutes(2 + random.nextInt(40)));
    String prompt = sourceField.equals(Schema.PROMPT_TEXT) ? sourceText.toString() : filler(400 + random.nextInt(900));
    String response = sourceField.equals(Schema.RESPONSE_TEXT) ? sourceText.toString() : filler(300 + random.nextInt(600));
    String prefillNode = random.nextBoolean() || i == 0 ? "prefill-0" : "prefill-1";
    String decodeNode = i == 0 || random.nextBoolean() ? "decode-0" : "decode-1";
    RequestRecord source = request(victim, sourceTime, prompt, response, prefillNode, decodeNode,
        (long) prompt.length() / 4, (long) prompt.length() / 4, 3_000L + prompt.length() / 40);
    facts.put(source.requestId(), facts(source, false));

    // The recipient: an over-length prompt the engine rejected to a one-token stub, answered with 200.
    StringBuilder answer = new StringBuilder("Here is what I found. " + filler(120 + random.nextInt(300)));
    for (String secret : secrets) {
      answer.append(' ').append(secret).append(' ').append(filler(i == 0 ? 1_200 : 80 + random.nextInt(200)));
    }
    long claimed = POOL + 20_000 + random.nextInt(360_000);
    RequestRecord recipientRecord = request(recipient, when, filler(2_000 + random.nextInt(2_000)), answer.toString(),
        prefillNode, decodeNode, claimed, 1L, 180L + random.nextInt(200));
    facts.put(recipientRecord.requestId(), facts(recipientRecord, true));

    List<Span> spans = new ArrayList<>();
    long tokens = 0;
    for (String secret : secrets) {
      int r = recipientRecord.responseText().indexOf(secret);
      int s = sourceText.indexOf(secret);
      spans.add(new Span(r, r + secret.length(), sourceField, s, s + secret.length(), secret.length() / 4));
      tokens += secret.length() / 4;
    }
    Confidence confidence = kind == FindingKind.RARE_IDENTIFIER_LEAK ? Confidence.PROBABLE : Confidence.CONFIRMED;
    String id = kind.id() + ":" + recipientRecord.requestId();
    Source src = new Source(source.requestId(), source.engineRid(), victim, tokens, spans, Attribution.SOLE);
    Map<String, Object> evidence = new LinkedHashMap<>();
    evidence.put("verified_chars", secrets.stream().mapToLong(String::length).sum());
    evidence.put("source_gap_seconds", Duration.between(sourceTime, when).toSeconds());
    evidence.put("same_decode_node", true);
    if (kind == FindingKind.CANARY_LEAK) {
      evidence.put("canary", "kvcanary-" + i);
    }
    if (kind == FindingKind.RARE_IDENTIFIER_LEAK) {
      evidence.put("identifier_classes", List.of("email", "account_number"));
    }
    findings.add(new Finding(id, kind, confidence, recipientRecord.requestId(), recipientRecord.engineRid(), recipient,
        when, prefillNode, decodeNode, List.of(src), evidence));
    findings.add(new Finding("over_length_accepted:" + recipientRecord.requestId(), FindingKind.OVER_LENGTH_ACCEPTED,
        Confidence.PROBABLE, recipientRecord.requestId(), recipientRecord.engineRid(), recipient, when, prefillNode,
        decodeNode, List.of(), Map.of("prompt_tokens", claimed, "limit", POOL, "status_code", 200L)));
    findings.add(new Finding("prefill_underrun:" + recipientRecord.requestId(), FindingKind.PREFILL_UNDERRUN,
        Confidence.PROBABLE, recipientRecord.requestId(), recipientRecord.engineRid(), recipient, when, prefillNode,
        decodeNode, List.of(), Map.of("engine_input_len", 1L, "prompt_tokens", claimed,
            "observed_ttft_ms", recipientRecord.ttftMillis(), "expected_ttft_ms", claimed / 9)));
    return new Leak(source, recipientRecord, sourceField, spans, secrets, kind, id);
  }

  private String secret(int leak, int part, String victim, FindingKind kind) {
    String account = String.format("%04d-%04d-%04d", random.nextInt(10_000), random.nextInt(10_000), random.nextInt(10_000));
    String base = victim.toUpperCase(java.util.Locale.ROOT) + " CONFIDENTIAL ledger entry " + leak + "." + part
        + ": wire transfer to account " + account + " for treasury settlement, contact " + victim + ".cfo"
        + leak + "@" + victim + ".example, approval code Z" + (1000 + random.nextInt(9000)) + ". ";
    String tail = kind == FindingKind.CANARY_LEAK ? "kvcanary-" + leak + " " : "";
    return base + tail + filler(leak == 0 ? 900 : 60 + random.nextInt(200)).strip();
  }

  private RequestRecord benign(String tenant, Instant when) {
    String prompt = filler(200 + random.nextInt(2_000));
    RequestRecord r = request(tenant, when, prompt, filler(200 + random.nextInt(800)),
        random.nextBoolean() ? "prefill-0" : "prefill-1", random.nextBoolean() ? "decode-0" : "decode-1",
        (long) prompt.length() / 4, (long) prompt.length() / 4, 600L + prompt.length() / 3);
    facts.put(r.requestId(), facts(r, false));
    return r;
  }

  private RequestRecord request(String tenant, Instant when, String prompt, String response, String prefillNode,
      String decodeNode, long promptTokens, long engineInputLen, long ttftMillis) {
    serial++;
    String rid = String.format("%08x%08x", serial * 2_654_435_761L & 0xffffffffL, random.nextInt() & 0xffffffffL);
    long start = when.toEpochMilli();
    RequestRecord record = RequestRecord.builder("chatcmpl-" + rid).engineRid(rid).tenant(tenant).model("frontier-1m")
        .deployment("frontier-1m-pd").prefillNode(prefillNode).decodeNode(decodeNode).bootstrapRoom((long) serial)
        .startTime(start).firstTokenTime(start + ttftMillis).endTime(start + ttftMillis + 4_000).statusCode(200)
        .finishReason("stop").promptTokens(promptTokens).cachedTokens(0L).completionTokens((long) response.length() / 4)
        .engineInputLen(engineInputLen).promptText(prompt).responseText(response)
        .aliases(List.of("litellm_trace_id:" + traceId(rid)))
        .sourceFile("gateway/litellm-2026-08.jsonl").sourceLine(serial).build();
    requests.add(record);
    return record;
  }

  /** The trace id LiteLLM logged for the request with engine rid {@code rid}: a UUID made from it. */
  public static String traceId(String rid) {
    return rid.substring(0, 8) + "-" + rid.substring(8, 12) + "-4" + rid.substring(13, 16) + "-8000-00000" + rid.substring(0, 7);
  }

  private EngineFacts facts(RequestRecord r, boolean rejected) {
    ConfigEpoch prefill = epochAt(r.prefillNode(), r.startTime());
    ConfigEpoch decode = epochAt(r.decodeNode(), r.startTime());
    return new EngineFacts(r.prefillNode(), r.decodeNode(), r.bootstrapRoom(), r.engineInputLen(), r.cachedTokens(),
        rejected, rejected ? r.promptTokens() : null, rejected ? POOL : null, rejected ? 0.06 : 40.0 + r.promptTokens() / 1000.0,
        0, 0, 0, prefill, decode, rejected ? 5 : 4);
  }

  private ConfigEpoch epochAt(String node, long time) {
    ConfigEpoch current = null;
    for (ConfigEpoch e : epochs) {
      if (e.node().equals(node) && e.start() <= time && (current == null || e.start() > current.start())) {
        current = e;
      }
    }
    return current;
  }

  private static ConfigEpoch epoch(String node, NodeRole role, long start, Long pool, Long context, String version,
      Boolean canary, Boolean checksum, Boolean deferred, long line) {
    return new ConfigEpoch(node, role, start, pool, context, 64, version, "frontier-1m", "frontier-1m",
        "mooncake", canary, checksum, deferred, "sglang-log", "logs/" + node + ".log", line);
  }

  private String filler(int chars) {
    StringBuilder out = new StringBuilder(chars + 16);
    while (out.length() < chars) {
      int words = 6 + random.nextInt(12);
      for (int w = 0; w < words; w++) {
        String word = WORDS[random.nextInt(WORDS.length)];
        out.append(w == 0 ? Character.toUpperCase(word.charAt(0)) + word.substring(1) : word);
        out.append(w == words - 1 ? ". " : " ");
      }
    }
    return out.toString();
  }

  // ---------------------------------------------------------------- the report, from ground truth

  private Incident incident(Path index) {
    findings.sort(java.util.Comparator.comparing(Finding::time).thenComparing(Finding::id));
    Map<String, long[]> victim = new TreeMap<>();    // requests, recipients, tokens
    Map<String, long[]> recipient = new TreeMap<>(); // responses, sources, tokens
    Map<List<String>, long[]> cells = new LinkedHashMap<>();
    Map<Instant, long[]> hours = new TreeMap<>();
    Set<String> victims = new TreeSet<>();
    Set<String> recipients = new TreeSet<>();
    long tokens = 0;
    Instant first = null;
    Instant last = null;
    for (Leak l : leaks) {
      long t = l.spans().stream().mapToLong(Span::tokens).sum();
      String v = l.source().tenant();
      String r = l.recipient().tenant();
      add(victim, v, 1, 1, t);
      add(recipient, r, 1, 1, t);
      cells.computeIfAbsent(List.of(v, r), k -> new long[2]);
      cells.get(List.of(v, r))[0]++;
      cells.get(List.of(v, r))[1] += t;
      victims.add(v);
      recipients.add(r);
      tokens += t;
      Instant when = Instant.ofEpochMilli(l.recipient().startTime());
      first = first == null || when.isBefore(first) ? when : first;
      last = last == null || when.isAfter(last) ? when : last;
      long[] h = hours.computeIfAbsent(when.truncatedTo(ChronoUnit.HOURS), k -> new long[3]);
      h[0]++;
      h[1]++;
      h[2]++;
    }
    for (RequestRecord r : overLengthFindings) {
      long[] h = hours.computeIfAbsent(Instant.ofEpochMilli(r.startTime()).truncatedTo(ChronoUnit.HOURS), k -> new long[3]);
      h[1]++;
      h[2]++;
    }
    List<TenantImpact> tenants = new ArrayList<>();
    Set<String> names = new TreeSet<>(victim.keySet());
    names.addAll(recipient.keySet());
    for (String name : names) {
      long[] v = victim.getOrDefault(name, new long[3]);
      long[] r = recipient.getOrDefault(name, new long[3]);
      tenants.add(new TenantImpact(name, new TenantImpact.AsVictim(v[0], v[1], v[2], v[0], v[1], v[2]),
          new TenantImpact.AsRecipient(r[0], r[1], r[2], r[1])));
    }
    List<MatrixCell> matrix = new ArrayList<>();
    cells.forEach((k, c) -> matrix.add(new MatrixCell(k.get(0), k.get(1), c[0], c[1], c[0])));
    List<HourCount> timeline = new ArrayList<>();
    hours.forEach((h, c) -> timeline.add(new HourCount(h, c[0], c[1], c[2], c[0] * 4)));
    Instant start = Instant.ofEpochMilli(prefill0.start());
    List<Window> windows = List.of(
        new Window(Window.Kind.VULNERABLE, "prefill-0", null, start, FIX, leaks.size(), "pool 681280 < context 1048576"),
        new Window(Window.Kind.VULNERABLE, "prefill-1", null, start, null, leaks.size(), "pool 681280 < context 1048576"),
        new Window(Window.Kind.EXPOSURE, null, "frontier-1m-pd", first, last, leaks.size(), null));
    int admitted = leaks.size() + overLengthFindings.size();
    Summary summary = new Summary(leaks.size(), leaks.size(), victims.size(), recipients.size(), admitted,
        admitted, first, last, tokens, 0, findings.stream().filter(f -> f.confidence() == Confidence.SUSPECT).count(),
        leaks.size(), victims.size(), 0);
    Report report = new Report(Report.REPORT_VERSION, Instant.parse("2026-09-12T09:00:00Z"), index.toString(), summary,
        windows, findings, tenants, matrix, timeline, Map.of("email", (long) leaks.size(), "account_number", (long) leaks.size()),
        new Coverage(List.of(new Coverage.Gap("decode-1", T0.plus(Duration.ofDays(3)), T0.plus(Duration.ofDays(3).plusHours(2)),
            "no engine log lines")), requests.size(), 0, 0),
        Map.of("fixed_version", "0.5.22", "overlap_min_tokens", 24L));
    return new Incident(report, List.copyOf(requests), List.copyOf(epochs), List.copyOf(leaks));
  }

  private static void add(Map<String, long[]> map, String key, long a, long b, long c) {
    long[] v = map.computeIfAbsent(key, k -> new long[3]);
    v[0] += a;
    v[1] += b;
    v[2] += c;
  }
}

package io.kvscope.analysis.report;

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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small incident shaped like a real one (an over-length admission bug on PD nodes), built by hand for the writer tests: five
 * tenants, leaks of every kind and tier, over-length admissions and underruns on a vulnerable
 * prefill node, config findings, one window still open, a coverage gap, and stored texts whose
 * leaked spans sit at the offsets the findings name.
 */
final class IncidentFixture {

  static final String NORTHWIND = "northwind";
  static final String GLOBEX = "globex";
  static final String INITECH = "initech";
  static final String UMBRELLA = "umbrella-corp";
  static final String HOOLI = "hooli";
  /** A tenant name that needs CSV quoting and a safe directory name. */
  static final String ACME = "Acme, \"Intl\"";
  static final List<String> TENANTS = List.of(NORTHWIND, GLOBEX, INITECH, UMBRELLA, HOOLI, ACME);

  // Request ids (gateway ids) and engine rids, per tenant.
  static final String NW_REQ_1 = "chatcmpl-2b7e41d09a";
  static final String NW_REQ_2 = "chatcmpl-5c03aa7f12";
  static final String NW_REQ_3 = "chatcmpl-77e0c1b9d4";
  static final String GX_REQ_1 = "chatcmpl-9f1c6e2b88";
  static final String GX_REQ_2 = "chatcmpl-a4d2903e51";
  static final String IT_REQ_1 = "chatcmpl-c81f5b0a3e";
  static final String IT_REQ_2 = "chatcmpl-d92e6c1b4f";
  static final String UM_REQ_1 = "chatcmpl-e0a37d2c50";
  static final String UM_REQ_2 = "chatcmpl-f1b48e3d61";
  static final String HO_REQ_1 = "chatcmpl-0c59f4e772";
  static final String AC_REQ_1 = "chatcmpl-1d6a05f883";

  static final Map<String, String> OWNER = Map.ofEntries(
      Map.entry(NW_REQ_1, NORTHWIND), Map.entry(NW_REQ_2, NORTHWIND), Map.entry(NW_REQ_3, NORTHWIND),
      Map.entry(GX_REQ_1, GLOBEX), Map.entry(GX_REQ_2, GLOBEX),
      Map.entry(IT_REQ_1, INITECH), Map.entry(IT_REQ_2, INITECH),
      Map.entry(UM_REQ_1, UMBRELLA), Map.entry(UM_REQ_2, UMBRELLA),
      Map.entry(HO_REQ_1, HOOLI), Map.entry(AC_REQ_1, ACME));

  static final Instant T0 = Instant.parse("2026-08-27T09:14:03.250Z");

  // Texts: what each tenant sent and got; leaked spans are copied verbatim from sources.
  static final String NW_SECRET = "Invoice for Jane Doe, jane.doe@northwind-mail.com, account 4400123498, due Friday";
  static final String UM_SECRET = "Quarterly forecast: Raccoon facility budget cut by forty percent";
  static final String GX_SECRET = "Deploy key sk-proj-Zq81LmT4vW9xK2rB7cNp for the Kestrel pipeline";
  static final String CANARY = "KVCANARY-7f3a19c2e5";

  static final Map<String, String> PROMPTS = Map.ofEntries(
      Map.entry(NW_REQ_1, "Draft a polite reminder. " + NW_SECRET + ". Keep it short."),
      Map.entry(NW_REQ_2, "Summarise the canary marker " + CANARY + " status for the Tuesday meeting"),
      Map.entry(NW_REQ_3, "What is the capital of Portugal?"),
      Map.entry(GX_REQ_1, "Translate the attached 900k-token contract about Meridian shipping lanes"),
      Map.entry(GX_REQ_2, "Rotate credentials. " + GX_SECRET + " then confirm."),
      Map.entry(IT_REQ_1, "Review these TPS report templates from Lumbergh carefully"),
      Map.entry(IT_REQ_2, "Explain stapler procurement policy"),
      Map.entry(UM_REQ_1, "Board memo. " + UM_SECRET + ". Confidential."),
      Map.entry(UM_REQ_2, "Continue the board memo about Arklay"),
      Map.entry(HO_REQ_1, "Compress this middle-out benchmark"),
      // Acme was forwarded umbrella's memo: its prompt held the same passage word for word.
      Map.entry(AC_REQ_1, "Order anvils for the roadrunner programme. Forwarded note: " + UM_SECRET));

  static final String GX_RESPONSE_1 = "Here is the translation summary. " + NW_SECRET + " End of summary.";
  static final String IT_RESPONSE_1 = "TPS notes: " + CANARY + " and also " + UM_SECRET + " done";
  static final String NW_RESPONSE_3 = "Lisbon. Also: " + GX_SECRET;
  static final String HO_RESPONSE_1 = "Middle-out result: Lumbergh templates reviewed";
  static final String UM_RESPONSE_2 = "Memo continued: " + UM_SECRET;

  static final Map<String, String> RESPONSES = Map.ofEntries(
      Map.entry(GX_REQ_1, GX_RESPONSE_1),
      Map.entry(IT_REQ_1, IT_RESPONSE_1),
      Map.entry(NW_REQ_3, NW_RESPONSE_3),
      Map.entry(HO_REQ_1, HO_RESPONSE_1),
      Map.entry(UM_REQ_2, UM_RESPONSE_2),
      Map.entry(NW_REQ_1, "Dear Jane, a gentle reminder."),
      Map.entry(AC_REQ_1, "Anvils ordered."));

  /** Stored text words that must never appear in a redacted report (all from leaked spans). */
  static final List<String> SECRET_WORDS = List.of("jane.doe@northwind-mail.com", "4400123498", "Raccoon", "forecast",
      "sk-proj-Zq81LmT4vW9xK2rB7cNp", "Kestrel", CANARY, "Invoice", "Meridian", "Lumbergh", "Portugal");

  private IncidentFixture() {}

  static TextSource texts() {
    return (requestId, field) -> TextSource.PROMPT.equals(field) ? PROMPTS.get(requestId)
        : TextSource.RESPONSE.equals(field) ? RESPONSES.get(requestId) : null;
  }

  /** The span of {@code needle} in a recipient response and the source text it came from. */
  static Span span(String response, String needle, String sourceField, String sourceText, int tokens) {
    int r = response.indexOf(needle);
    int s = sourceText.indexOf(needle);
    if (r < 0 || s < 0) {
      throw new IllegalStateException("fixture text missing: " + needle);
    }
    return new Span(r, r + needle.length(), sourceField, s, s + needle.length(), tokens);
  }

  static Instant at(long minutes) {
    return T0.plus(Duration.ofMinutes(minutes));
  }

  static Report incident() {
    return incident(List.of());
  }

  static Report incident(List<Finding> extra) {
    List<Finding> findings = new ArrayList<>();
    // A verbatim span of northwind's prompt in globex's over-length response.
    findings.add(new Finding("cross_tenant_overlap:" + GX_REQ_1, FindingKind.CROSS_TENANT_OVERLAP, Confidence.CONFIRMED,
        GX_REQ_1, GX_REQ_1.substring(9), GLOBEX, at(0), "prefill-a", "decode-a",
        List.of(new Source(NW_REQ_1, NW_REQ_1.substring(9), NORTHWIND, 21,
            List.of(span(GX_RESPONSE_1, NW_SECRET, TextSource.PROMPT, PROMPTS.get(NW_REQ_1), 21)), Attribution.SOLE)),
        evidence("verified_tokens", 21L, "min_span_tokens", 12L, "source_age_ms", 41_250L, "same_decode_node", true)));
    // A canary of northwind and a span that umbrella's and acme's prompts both held in initech's response.
    findings.add(new Finding("canary_leak:" + IT_REQ_1, FindingKind.CANARY_LEAK, Confidence.CONFIRMED,
        IT_REQ_1, IT_REQ_1.substring(9), INITECH, at(2 * 24 * 60 + 35), "prefill-a", "decode-b",
        List.of(
            new Source(NW_REQ_2, NW_REQ_2.substring(9), NORTHWIND, 6,
                List.of(span(IT_RESPONSE_1, CANARY, TextSource.PROMPT, PROMPTS.get(NW_REQ_2), 6)), Attribution.SOLE),
            new Source(UM_REQ_1, UM_REQ_1.substring(9), UMBRELLA, 14,
                List.of(span(IT_RESPONSE_1, UM_SECRET, TextSource.PROMPT, PROMPTS.get(UM_REQ_1), 14)),
                Attribution.CANDIDATE),
            new Source(AC_REQ_1, AC_REQ_1.substring(9), ACME, 14,
                List.of(span(IT_RESPONSE_1, UM_SECRET, TextSource.PROMPT, PROMPTS.get(AC_REQ_1), 14)),
                Attribution.CANDIDATE)),
        evidence("canary", "KVCANARY-*", "markers", 1L)));
    // A rare identifier (an API key) of globex in northwind's answer.
    findings.add(new Finding("rare_identifier_leak:" + NW_REQ_3, FindingKind.RARE_IDENTIFIER_LEAK, Confidence.PROBABLE,
        NW_REQ_3, NW_REQ_3.substring(9), NORTHWIND, at(9 * 24 * 60 + 10), "prefill-b", "decode-a",
        List.of(new Source(GX_REQ_2, GX_REQ_2.substring(9), GLOBEX, 9,
            List.of(span(NW_RESPONSE_3, GX_SECRET, TextSource.PROMPT, PROMPTS.get(GX_REQ_2), 9)), Attribution.SOLE)),
        evidence("identifier_class", "api_key", "tenant_document_frequency", 1L, "note", "seen once,\nin one \"tenant\"")));
    // A weak overlap, timing-only grade: not counted, not notified.
    findings.add(new Finding("cross_tenant_overlap:" + HO_REQ_1, FindingKind.CROSS_TENANT_OVERLAP, Confidence.SUSPECT,
        HO_REQ_1, HO_REQ_1.substring(9), HOOLI, at(3 * 24 * 60), "prefill-b", "decode-b",
        List.of(new Source(IT_REQ_1, IT_REQ_1.substring(9), INITECH, 2, List.of(), Attribution.SOLE)),
        evidence("verified_tokens", 2L)));
    // Umbrella's own earlier memo in its own response: reported apart, never a notification.
    findings.add(new Finding("same_tenant_reuse:" + UM_REQ_2, FindingKind.SAME_TENANT_REUSE, Confidence.CONFIRMED,
        UM_REQ_2, UM_REQ_2.substring(9), UMBRELLA, at(4 * 24 * 60), "prefill-a", "decode-a",
        List.of(new Source(UM_REQ_1, UM_REQ_1.substring(9), UMBRELLA, 14,
            List.of(span(UM_RESPONSE_2, UM_SECRET, TextSource.PROMPT, PROMPTS.get(UM_REQ_1), 14)), Attribution.SOLE)),
        Map.of()));
    // The mechanism, on globex's and acme's requests.
    findings.add(new Finding("over_length_accepted:" + GX_REQ_1, FindingKind.OVER_LENGTH_ACCEPTED, Confidence.PROBABLE,
        GX_REQ_1, GX_REQ_1.substring(9), GLOBEX, at(0), "prefill-a", "decode-a", List.of(),
        evidence("prompt_tokens", 912_004L, "limit_tokens", 681_280L, "status_code", 200L, "tokens_per_char", 0.2731)));
    findings.add(new Finding("prefill_underrun:" + GX_REQ_1, FindingKind.PREFILL_UNDERRUN, Confidence.PROBABLE,
        GX_REQ_1, GX_REQ_1.substring(9), GLOBEX, at(0), "prefill-a", "decode-a", List.of(),
        evidence("engine_input_len", 1L, "pages_reserved", 8L, "pages_transferred", 1L)));
    findings.add(new Finding("over_length_accepted:" + AC_REQ_1, FindingKind.OVER_LENGTH_ACCEPTED, Confidence.PROBABLE,
        AC_REQ_1, AC_REQ_1.substring(9), ACME, at(5 * 24 * 60), "prefill-a", "decode-b", List.of(),
        evidence("prompt_tokens", 700_000L, "limit_tokens", 681_280L)));
    findings.add(new Finding("timing_anomaly:" + IT_REQ_2, FindingKind.TIMING_ANOMALY, Confidence.SUSPECT,
        IT_REQ_2, IT_REQ_2.substring(9), INITECH, at(6 * 24 * 60), "prefill-b", "decode-b", List.of(),
        evidence("ttft_ms", 41L, "expected_ttft_ms", 38_400.0, "residual_sigma", 7.9)));
    // Config facts.
    findings.add(new Finding("config_pool_below_context:prefill-a:1", FindingKind.CONFIG_POOL_BELOW_CONTEXT,
        Confidence.CONFIRMED, null, null, null, Instant.parse("2026-08-26T22:00:00Z"), "prefill-a", null, List.of(),
        evidence("pool_tokens", 681_280L, "context_length", 1_048_576L)));
    findings.add(new Finding("config_unpatched_engine:prefill-b:2", FindingKind.CONFIG_UNPATCHED_ENGINE,
        Confidence.CONFIRMED, null, null, null, Instant.parse("2026-09-01T06:00:00Z"), "prefill-b", null, List.of(),
        evidence("engine_version", "0.5.19", "fixed_version", "0.5.22")));
    findings.add(new Finding("config_missing_safeguard:decode-a:1", FindingKind.CONFIG_MISSING_SAFEGUARD,
        Confidence.CONFIRMED, null, null, null, Instant.parse("2026-08-26T22:05:00Z"), "decode-a", null, List.of(),
        evidence("kv_canary", false, "kv_checksum", false, "deferred_release", List.of("prefill", "decode"))));
    findings.addAll(extra);

    List<Window> windows = List.of(
        new Window(Window.Kind.VULNERABLE, "prefill-a", null, Instant.parse("2026-08-26T22:00:00Z"),
            Instant.parse("2026-09-09T12:00:00Z"), 31_877, "pool 681280 < context 1048576", Window.UNKNOWN_VERSION),
        new Window(Window.Kind.VULNERABLE, "decode-a", null, Instant.parse("2026-08-26T22:05:00Z"),
            Instant.parse("2026-09-02T03:00:00Z"), 12_004, "kv_canary off, kv_checksum off", "0.5.19"),
        new Window(Window.Kind.VULNERABLE, "decode-a", null, Instant.parse("2026-09-04T10:00:00Z"),
            Instant.parse("2026-09-09T12:00:00Z"), 9_112, "kv_canary off after restart", "0.5.19"),
        new Window(Window.Kind.VULNERABLE, "prefill-b", null, Instant.parse("2026-09-01T06:00:00Z"), null, 7_340,
            "engine 0.5.19 < fixed 0.5.22", "0.5.19"),
        new Window(Window.Kind.EXPOSURE, null, "llama-1m", at(0), at(2 * 24 * 60 + 35), 2, null),
        new Window(Window.Kind.EXPOSURE, "prefill-b", "llama-1m-b", at(9 * 24 * 60 + 10), null, 1, null));

    List<TenantImpact> tenants = List.of(
        new TenantImpact(ACME, new TenantImpact.AsVictim(0, 0, 0, 1, 1, 14), new TenantImpact.AsRecipient(0, 0, 0, 0)),
        impact(GLOBEX, 1, 1, 9, 1, 1, 21),
        new TenantImpact(INITECH, new TenantImpact.AsVictim(0, 0, 0, 0, 0, 0), new TenantImpact.AsRecipient(1, 1, 20, 3)),
        impact(NORTHWIND, 2, 2, 27, 1, 1, 9),
        new TenantImpact(UMBRELLA, new TenantImpact.AsVictim(0, 0, 0, 1, 1, 14),
            new TenantImpact.AsRecipient(0, 0, 0, 0)));
    List<MatrixCell> matrix = List.of(
        new MatrixCell(ACME, INITECH, 0, 0, 1),
        new MatrixCell(GLOBEX, NORTHWIND, 1, 9, 1),
        new MatrixCell(NORTHWIND, GLOBEX, 1, 21, 1),
        new MatrixCell(NORTHWIND, INITECH, 1, 6, 1),
        new MatrixCell(UMBRELLA, INITECH, 0, 0, 1));

    List<HourCount> timeline = new ArrayList<>();
    Instant firstHour = Instant.parse("2026-08-27T00:00:00Z");
    for (int h = 0; h < 14 * 24; h++) {
      Instant hour = firstHour.plus(Duration.ofHours(h));
      long exposures = h == 9 || h == 2 * 24 + 9 + 1 || h == 9 * 24 + 9 ? 1 : 0;
      long overLength = h % 29 == 9 ? 1 + h % 3 : 0;
      long underruns = h % 29 == 9 ? 1 + (h + 1) % 2 : 0;
      timeline.add(new HourCount(hour, exposures, overLength, underruns, 120 + (h * 37) % 90));
    }

    Summary summary = new Summary(3, 3, 2, 3, 2, 1, at(0), at(9 * 24 * 60 + 10), 50, 1, 2, 5, 4, 0);
    Coverage coverage = new Coverage(List.of(
        new Coverage.Gap("decode-b", Instant.parse("2026-09-03T02:00:00Z"), Instant.parse("2026-09-03T05:00:00Z"),
            "no engine log lines in an active period"),
        new Coverage.Gap("prefill-b", Instant.parse("2026-09-06T11:00:00Z"), Instant.parse("2026-09-06T12:00:00Z"),
            "log rotation lost an hour")),
        48_210, 1_204, 310);
    Map<String, Object> parameters = new LinkedHashMap<>();
    parameters.put("min_span_tokens", 12L);
    parameters.put("fixed_engine_version", "0.5.22");
    parameters.put("tokens_per_char", 0.2731);
    parameters.put("ttft_fit", Map.of("slope_ms_per_token", 0.041, "intercept_ms", 85.0, "r2", 0.93));
    parameters.put("tenant_keys", List.of("metadata.user_api_key_org_id", "metadata.user_api_key_team_id", "end_user"));
    parameters.put("source_recency_minutes", 30L);
    return new Report(Report.REPORT_VERSION, Instant.parse("2026-09-10T08:00:00Z"), "/srv/kvscope/index", summary,
        windows, findings, tenants, matrix, timeline, Map.of("email", 1L, "api_key", 1L, "canary", 1L, "account_number", 1L),
        coverage, parameters);
  }

  static TenantImpact impact(String tenant, long vRequests, long vRecipients, long vTokens, long rResponses, long rSources,
      long rTokens) {
    return new TenantImpact(tenant, new TenantImpact.AsVictim(vRequests, vRecipients, vTokens, vRequests, vRecipients,
        vTokens), new TenantImpact.AsRecipient(rResponses, rSources, rTokens, rSources));
  }

  /** Leak evidence that names only its data categories. */
  static Evidence.Identifier categories(String... categories) {
    return new Evidence.Identifier(List.of(), new Evidence.LeakMechanism(List.of(), false, List.of()), "sole", List.of(categories), 0,
        List.of(), "");
  }

  static Map<String, Object> evidence(Object... keyValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put((String) keyValues[i], keyValues[i + 1]);
    }
    return map;
  }
}

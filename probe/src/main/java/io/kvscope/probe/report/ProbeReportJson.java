package io.kvscope.probe.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.kvscope.model.finding.Finding;
import io.kvscope.analysis.report.ContentRedactor;
import io.kvscope.analysis.report.ReportJson;
import io.kvscope.index.store.Redaction;
import io.kvscope.probe.ProbeOptions;
import io.kvscope.probe.ProbeResult;
import io.kvscope.probe.canary.Api;
import io.kvscope.probe.canary.CanaryRun;
import io.kvscope.probe.canary.Exchange;
import io.kvscope.probe.canary.MarkerLeakEvidence;
import io.kvscope.probe.canary.Markers;
import io.kvscope.probe.canary.Plan;
import io.kvscope.probe.canary.PlannedRequest;
import io.kvscope.probe.canary.PrefillFit;
import io.kvscope.probe.config.CheckResult;
import io.kvscope.probe.config.Fact;
import io.kvscope.probe.config.FactName;
import io.kvscope.probe.config.FetchRecord;
import io.kvscope.probe.config.Limits;
import io.kvscope.probe.config.NodeReport;
import io.kvscope.probe.config.Observation;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code probe.json}: the machine-readable evidence of one run, versioned
 * ({@code probe_report_version}) and described by {@code docs/probe-report.schema.json}. Response
 * text appears only as a hash, a length, the markers found and a masked excerpt, unless the run
 * was told to reveal it: a leaking deployment's responses may hold other customers' data.
 */
public final class ProbeReportJson {

  public static final String VERSION = "1.0";
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ProbeReportJson() {}

  public static byte[] bytes(ProbeResult r) {
    try {
      return JSON.writeValueAsBytes(tree(r));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the probe report could not be written as JSON", e);
    }
  }

  static Map<String, Object> tree(ProbeResult r) {
    ProbeOptions o = r.options();
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("probe_report_version", VERSION);
    root.put("run", run(r, o));
    root.put("outcome", r.outcome().id());
    root.put("exit_code", r.outcome().exitCode());
    root.put("reasons", r.reasons());
    root.put("warnings", r.warnings());
    root.put("nodes", r.nodes().stream().map(ProbeReportJson::node).toList());
    root.put("target_fetches", r.targetFetches().stream().map(ProbeReportJson::fetch).toList());
    root.put("limits", limits(r.limits()));
    root.put("findings", r.findings().stream().map(ProbeReportJson::finding).toList());
    root.put("canary", r.plan() == null ? null : canary(r, new ContentRedactor(o.reveal(), Redaction.ephemeral())));
    return root;
  }

  private static Map<String, Object> run(ProbeResult r, ProbeOptions o) {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("tag", r.runTag());
    run.put("started", r.started().toString());
    run.put("finished", r.finished().toString());
    run.put("target", o.target() == null ? null : o.target().toString());
    run.put("servers", o.configEndpoints().stream().map(e -> pair("name", e.name(), "url", e.base().toString())).toList());
    run.put("model", r.model());
    run.put("fixed_version", o.fixedVersion());
    run.put("dry_run", o.dryRun());
    run.put("config_only", o.configOnly());
    run.put("reveal", o.reveal());
    Map<String, Object> caps = new LinkedHashMap<>();
    caps.put("concurrency", o.concurrency());
    caps.put("max_requests", o.maxRequests());
    caps.put("max_total_tokens", o.maxTotalTokens());
    caps.put("rate_per_second", o.ratePerSecond());
    caps.put("max_new_tokens", o.maxNewTokens());
    caps.put("connect_timeout_s", o.connectTimeout().toMillis() / 1000.0);
    caps.put("request_timeout_s", o.requestTimeout().toMillis() / 1000.0);
    run.put("caps", caps);
    return run;
  }

  private static Map<String, Object> node(NodeReport n) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", n.endpoint().name());
    m.put("url", n.endpoint().base().toString());
    m.put("reachable", n.reachable());
    m.put("readable", n.readable());
    m.put("engine", n.fact(FactName.ENGINE).value());
    m.put("role", n.epoch().role().name().toLowerCase(Locale.ROOT));
    Map<String, Object> facts = new LinkedHashMap<>();
    for (FactName name : FactName.values()) {
      Fact<?> f = n.fact(name);
      Map<String, Object> fm = new LinkedHashMap<>();
      Object v = f.value();
      fm.put("value", v instanceof Enum<?> e ? e.name().toLowerCase(Locale.ROOT) : v);
      fm.put("observed", f.observed().stream().map(ProbeReportJson::observation).toList());
      facts.put(name.id(), fm);
    }
    m.put("facts", facts);
    m.put("checks", n.checks().stream().map(ProbeReportJson::check).toList());
    m.put("fetches", n.fetches().stream().map(ProbeReportJson::fetch).toList());
    return m;
  }

  private static Map<String, Object> observation(Observation o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("source", o.source());
    m.put("field", o.field());
    m.put("raw", o.raw());
    return m;
  }

  private static Map<String, Object> check(CheckResult c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("check", c.check().id());
    m.put("verdict", c.verdict().id());
    m.put("expected", c.check().expectation());
    m.put("observed", c.observed());
    m.put("exploitable", c.exploitable());
    return m;
  }

  private static Map<String, Object> fetch(FetchRecord f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("request", "GET " + f.path());
    m.put("status", f.status() < 0 ? null : f.status());
    m.put("ms", f.elapsedMs());
    m.put("error", f.error());
    m.put("read", f.read());
    return m;
  }

  private static Map<String, Object> limits(Limits l) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("smallest_pool_tokens", l.smallestPool());
    m.put("smallest_pool_from", l.poolFrom());
    m.put("context_length", l.context());
    m.put("context_length_from", l.contextFrom());
    m.put("page_size", l.pageSize());
    return m;
  }

  static Map<String, Object> finding(Finding f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", f.id());
    m.put("kind", f.kind().id());
    m.put("confidence", f.confidence().id());
    m.put("request_id", f.requestId());
    m.put("node", f.node());
    m.put("time", f.time() == null ? null : f.time().toString());
    Map<String, Object> evidence = new LinkedHashMap<>(ReportJson.fields(f.evidence()));
    evidence.remove("epoch_start_node_clock"); // a live reading has no node clock of its own
    if (f.node() != null) {
      evidence.put("source", "live endpoints of " + f.node());
    }
    m.put("evidence", evidence);
    return m;
  }

  private static Map<String, Object> canary(ProbeResult r, ContentRedactor redactor) {
    Plan plan = r.plan();
    Map<String, Object> m = new LinkedHashMap<>();
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("requests", plan.requests());
    p.put("estimated_tokens", plan.estimatedTokens());
    p.put("fill_tokens", plan.fillTokens());
    p.put("chars_per_token", plan.charsPerToken());
    p.put("max_new_tokens", plan.maxNewTokens());
    p.put("apis", plan.fill().stream().map(x -> x.api()).distinct().map(Api::id).toList());
    p.put("fill", plan.fill().stream().map(ProbeReportJson::planned).toList());
    p.put("probe", plan.probes().stream().map(ProbeReportJson::planned).toList());
    p.put("skipped", plan.skipped().stream().map(s -> pair("what", s.what(), "reason", s.reason())).toList());
    m.put("plan", p);
    m.put("sent", r.canary() != null);
    CanaryRun.Result c = r.canary();
    if (c == null) {
      return m;
    }
    Map<String, Object> cal = new LinkedHashMap<>();
    cal.put("initial_chars_per_token", c.calibration().initial());
    cal.put("used_chars_per_token", round(c.calibration().used()));
    cal.put("samples", c.calibration().samples());
    m.put("calibration", cal);
    PrefillFit fit = r.evidence().fit();
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("usable", fit.usable());
    f.put("ms_per_1k_tokens", round(fit.slopeMsPerToken() * 1000));
    f.put("intercept_ms", round(fit.interceptMs()));
    f.put("points", fit.points());
    f.put("why_not", fit.why());
    m.put("prefill_fit", f);
    m.put("refused_by_caps", c.refused().stream().map(s -> pair("what", s.what(), "reason", s.reason())).toList());
    m.put("requests", c.exchanges().stream().map(e -> exchange(e, redactor)).toList());
    m.put("leaks", leaks(r));
    m.put("notes", r.evidence().notes());
    return m;
  }

  private static Map<String, Object> planned(PlannedRequest p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", p.id());
    m.put("kind", p.kind().id());
    m.put("api", p.api().id());
    m.put("target_tokens", p.targetTokens());
    m.put("limit_tokens", p.limit());
    return m;
  }

  private static Map<String, Object> exchange(Exchange e, ContentRedactor redactor) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", e.id());
    m.put("kind", e.kind().id());
    m.put("api", e.planned().api().id());
    m.put("sent_at", e.sentAt().toString());
    m.put("prompt_chars", e.promptChars());
    m.put("estimated_prompt_tokens", e.estimatedTokens());
    m.put("limit_tokens", e.planned().limit());
    m.put("markers_given", e.markersGiven());
    m.put("first_marker", e.firstMarker());
    m.put("status", e.status() < 0 ? null : e.status());
    m.put("accepted", e.accepted());
    m.put("in_band_error", e.inBandError());
    m.put("error", e.errorMessage());
    m.put("transport_error", e.transportError());
    m.put("ttft_ms", e.ttftMs() == null ? null : round(e.ttftMs()));
    m.put("total_ms", round(e.totalMs()));
    m.put("reported_prompt_tokens", e.reportedPromptTokens());
    m.put("completion_tokens", e.completionTokens());
    m.put("finish_reason", e.finishReason());
    m.put("timed_out", e.timedOut());
    m.put("truncated", e.truncated());
    m.put("response", response(e.response(), redactor));
    return m;
  }

  /** The response as the report may show it: markers (synthetic) always, other text only masked. */
  static Map<String, Object> response(String text, ContentRedactor redactor) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("sha256", sha256(text));
    m.put("chars", text.length());
    m.put("markers_found", Markers.find(text).stream().distinct().toList());
    ContentRedactor.Shown shown = redactor.show(text);
    m.put("categories", shown == null ? List.of() : shown.categories());
    m.put(redactor.reveals() ? "text" : "excerpt", shown == null ? null : shown.excerpt());
    return m;
  }

  /** One row per leaked marker: the response that carried it and the request it was given to. */
  static List<Map<String, Object>> leaks(ProbeResult r) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Finding f : r.evidence().findings()) {
      if (!(f.evidence() instanceof MarkerLeakEvidence leak)) {
        continue;
      }
      for (MarkerLeakEvidence.Marker marker : leak.markers()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("recipient", f.requestId());
        m.put("recipient_kind", leak.requestKind());
        m.put("recipient_status", leak.status());
        m.put("api", leak.api());
        m.put("marker", marker.marker());
        m.put("given_to", marker.givenTo());
        m.put("match", marker.match());
        out.add(m);
      }
    }
    return out;
  }

  static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  /** A two-key JSON object written in this order every run (Map.of iterates in a per-JVM order). */
  private static Map<String, Object> pair(String k1, Object v1, String k2, Object v2) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(k1, v1);
    m.put(k2, v2);
    return m;
  }
}

package io.kvscope.probe.config;

import io.kvscope.analysis.analyzers.ConfigAudit;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.probe.Endpoint;
import io.kvscope.probe.http.Fetched;
import io.kvscope.probe.http.ProbeHttp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * Reads one node's config endpoints (GET only) and judges them with the config audit's rules.
 *
 * <p>Order: SGLang's server info ({@code /server_info}, then the older {@code /get_server_info}
 * when the newer path is not there), {@code /v1/models}, {@code /metrics}, then SGLang's model
 * info or, for a server that is not SGLang, vLLM's {@code /version}. A node that refuses the
 * connection is asked nothing more.
 */
public final class NodeCheck {

  private NodeCheck() {}

  /** The checked node; {@code modelIds} receives the ids its model list names. */
  public static NodeReport check(ProbeHttp http, Endpoint node, String fixedVersion, Instant at, List<String> modelIds) {
    Readings r = new Readings();
    List<FetchRecord> fetches = new ArrayList<>();
    boolean serverInfo = firstReadable(http, node, fetches, List.of("/server_info", "/get_server_info"),
        (body, source) -> ServerInfoResponse.read(body, source, r));
    if (reachable(fetches)) {
      fetch(http, node, fetches, "/v1/models", (body, source) -> {
        List<String> ids = ModelsResponse.read(body, source, r);
        modelIds.addAll(ids);
        return !ids.isEmpty();
      });
      fetch(http, node, fetches, "/metrics", (body, source) -> MetricsResponse.read(body, source, r));
      if (serverInfo) {
        firstReadable(http, node, fetches, List.of("/model_info", "/get_model_info"),
            (body, source) -> ModelInfoResponse.read(body, source, r));
      } else if (!"sglang".equals(r.fact(FactName.ENGINE).value())) {
        fetch(http, node, fetches, "/version", (body, source) -> VersionResponse.read(body, source, r));
      }
    }
    Map<FactName, Fact<?>> facts = new EnumMap<>(FactName.class);
    for (FactName name : FactName.values()) {
      facts.put(name, r.fact(name));
    }
    ConfigEpoch epoch = epochOf(node, facts, at);
    List<Finding> findings = ConfigAudit.check(epoch, at, fixedVersion).stream()
        // A version no endpoint showed is "unknown" (the audit never calls it unpatched): the probe's
        // engine-version check says so, so the audit's own unknown-version finding is not repeated.
        .filter(f -> f.kind() != FindingKind.CONFIG_ENGINE_VERSION_UNKNOWN)
        .toList();
    return new NodeReport(node, fetches, facts, epoch, findings, checks(epoch, findings));
  }

  /** The model ids the endpoint's {@code /v1/models} lists (a router's, say), recording the read. */
  public static List<String> modelIds(ProbeHttp http, Endpoint endpoint, List<FetchRecord> fetches) {
    List<String> ids = new ArrayList<>();
    fetch(http, endpoint, fetches, "/v1/models", (body, source) -> {
      ids.addAll(ModelsResponse.read(body, source, new Readings()));
      return !ids.isEmpty();
    });
    return ids;
  }

  static ConfigEpoch epochOf(Endpoint node, Map<FactName, Fact<?>> facts, Instant at) {
    Integer page = (Integer) facts.get(FactName.PAGE_SIZE).value();
    return new ConfigEpoch(node.name(), (NodeRole) facts.get(FactName.ROLE).value(), at.toEpochMilli(),
        (Long) facts.get(FactName.POOL_TOKENS).value(), (Long) facts.get(FactName.CONTEXT_LENGTH).value(), page,
        (String) facts.get(FactName.ENGINE_VERSION).value(), (String) facts.get(FactName.MODEL).value(),
        (String) facts.get(FactName.SERVED_MODEL).value(), (String) facts.get(FactName.TRANSFER_BACKEND).value(),
        (Boolean) facts.get(FactName.KV_CANARY).value(), (Boolean) facts.get(FactName.KV_CHECKSUM).value(),
        (Boolean) facts.get(FactName.DEFERRED_RELEASE).value(), "probe", node.base().toString(), 0);
  }

  /** The checklist verdicts, read off the config audit's findings (one home for the rules). */
  static List<CheckResult> checks(ConfigEpoch e, List<Finding> findings) {
    List<CheckResult> out = new ArrayList<>();
    Finding pool = first(findings, FindingKind.CONFIG_POOL_BELOW_CONTEXT);
    if (e.poolTokens() == null || e.contextLength() == null) {
      out.add(new CheckResult(ConfigCheck.POOL_VS_CONTEXT, CheckResult.Verdict.UNKNOWN,
          "pool " + orUnknown(e.poolTokens()) + ", context " + orUnknown(e.contextLength()), null));
    } else if (pool != null) {
      out.add(new CheckResult(ConfigCheck.POOL_VS_CONTEXT, CheckResult.Verdict.FAILED,
          e.poolTokens() + " < " + e.contextLength(), pool.evidence() instanceof Evidence.Config c && Boolean.TRUE.equals(c.exploitable())));
    } else {
      out.add(new CheckResult(ConfigCheck.POOL_VS_CONTEXT, CheckResult.Verdict.OK, e.poolTokens() + " >= " + e.contextLength(), false));
    }
    Finding version = first(findings, FindingKind.CONFIG_UNPATCHED_ENGINE);
    out.add(new CheckResult(ConfigCheck.ENGINE_VERSION,
        e.engineVersion() == null ? CheckResult.Verdict.UNKNOWN : version != null ? CheckResult.Verdict.FAILED : CheckResult.Verdict.OK,
        e.engineVersion() == null ? "no endpoint showed a version" : e.engineVersion(), null));
    Finding safeguards = first(findings, FindingKind.CONFIG_MISSING_SAFEGUARD);
    List<String> missing = safeguards != null && safeguards.evidence() instanceof Evidence.Config c ? c.missing() : List.of();
    out.add(flag(ConfigCheck.KV_CANARY, e.kvCanary(), missing.contains("kv_canary")));
    out.add(flag(ConfigCheck.KV_CHECKSUM, e.kvChecksum(), missing.contains("kv_checksum")));
    out.add(flag(ConfigCheck.DEFERRED_RELEASE, e.deferredRelease(), missing.contains("deferred_release")));
    return out;
  }

  private static CheckResult flag(ConfigCheck check, Boolean value, boolean missing) {
    CheckResult.Verdict v = value == null ? CheckResult.Verdict.UNKNOWN : missing ? CheckResult.Verdict.FAILED : CheckResult.Verdict.OK;
    return new CheckResult(check, v, value == null ? "not shown" : value ? "enabled" : "disabled", null);
  }

  private static Finding first(List<Finding> findings, FindingKind kind) {
    return findings.stream().filter(f -> f.kind() == kind).findFirst().orElse(null);
  }

  private static String orUnknown(Long v) {
    return v == null ? "unknown" : v.toString();
  }

  private static boolean reachable(List<FetchRecord> fetches) {
    return fetches.stream().anyMatch(f -> f.status() >= 0);
  }

  /** Tries {@code paths} in turn while the server says "no such path"; true when one was read. */
  private static boolean firstReadable(ProbeHttp http, Endpoint node, List<FetchRecord> fetches, List<String> paths,
      BiPredicate<String, String> reader) {
    for (String path : paths) {
      FetchRecord f = fetch(http, node, fetches, path, reader);
      if (f.read()) {
        return true;
      }
      if (f.status() != 404 && f.status() != 405) {
        return false;
      }
    }
    return false;
  }

  private static FetchRecord fetch(ProbeHttp http, Endpoint node, List<FetchRecord> fetches, String path,
      BiPredicate<String, String> reader) {
    Fetched f = http.get(node.resolve(path));
    boolean read = f.ok() && reader.test(f.body(), "GET " + path);
    FetchRecord record = FetchRecord.of(path, f, read);
    fetches.add(record);
    return record;
  }
}

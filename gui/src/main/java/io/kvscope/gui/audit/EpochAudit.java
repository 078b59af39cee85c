package io.kvscope.gui.audit;

import io.kvscope.analysis.analyzers.VersionOrder;

import io.kvscope.ingest.record.ConfigEpoch;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One node epoch checked against the checklist.
 *
 * @param end when the node's next epoch began, or null for its last one
 */
public record EpochAudit(ConfigEpoch epoch, Long end, Map<Check, Verdict> verdicts) {

  public EpochAudit {
    verdicts = Collections.unmodifiableMap(new EnumMap<>(verdicts));
  }

  /** Audits every epoch, node by node in start order (as {@code Epochs.byNode()} lists them). */
  public static List<EpochAudit> all(Map<String, List<ConfigEpoch>> byNode, String fixedVersion) {
    List<EpochAudit> out = new ArrayList<>();
    byNode.forEach((node, epochs) -> {
      for (int i = 0; i < epochs.size(); i++) {
        Long end = i + 1 < epochs.size() ? epochs.get(i + 1).start() : null;
        out.add(of(epochs.get(i), end, fixedVersion));
      }
    });
    return out;
  }

  public static EpochAudit of(ConfigEpoch e, Long end, String fixedVersion) {
    Map<Check, Verdict> v = new EnumMap<>(Check.class);
    v.put(Check.POOL_VS_CONTEXT, e.poolTokens() == null || e.contextLength() == null ? Verdict.UNKNOWN
        : e.poolBelowContext() ? Verdict.FAILED : Verdict.OK);
    v.put(Check.ENGINE_VERSION, !e.versionKnown() ? Verdict.UNKNOWN
        : !VersionOrder.atLeast(e.engineVersion(), fixedVersion) ? Verdict.FAILED : Verdict.OK);
    v.put(Check.KV_CANARY, flag(e.kvCanary()));
    v.put(Check.KV_CHECKSUM, flag(e.kvChecksum()));
    v.put(Check.DEFERRED_RELEASE, flag(e.deferredRelease()));
    return new EpochAudit(e, end, v);
  }

  private static Verdict flag(Boolean enabled) {
    return enabled == null ? Verdict.UNKNOWN : enabled ? Verdict.OK : Verdict.FAILED;
  }

  public Verdict verdict(Check check) {
    return verdicts.get(check);
  }

  public List<Check> failed() {
    return verdicts.entrySet().stream().filter(e -> e.getValue() == Verdict.FAILED).map(Map.Entry::getKey).toList();
  }
}

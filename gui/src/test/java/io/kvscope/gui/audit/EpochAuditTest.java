package io.kvscope.gui.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeRole;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EpochAuditTest {

  @Test
  void eachEpochIsCheckedAgainstTheChecklistAndUnknownIsNotOk() {
    ConfigEpoch vulnerable = epoch("prefill-0", 0, 681_280L, 1_048_576L, "0.5.20", false, null, true);
    ConfigEpoch fixed = epoch("prefill-0", 1_000, 1_400_000L, 1_048_576L, "0.5.22", true, true, true);
    ConfigEpoch promOnly = epoch("decode-0", 0, 2_000_000L, 1_048_576L, null, null, null, null);

    List<EpochAudit> audits = EpochAudit.all(Map.of("prefill-0", List.of(vulnerable, fixed), "decode-0", List.of(promOnly)),
        "0.5.22");

    EpochAudit first = audits.stream().filter(a -> a.epoch() == vulnerable).findFirst().orElseThrow();
    assertThat(first.end()).isEqualTo(1_000L);
    assertThat(first.failed()).containsExactly(Check.POOL_VS_CONTEXT, Check.ENGINE_VERSION, Check.KV_CANARY);
    assertThat(first.verdict(Check.KV_CHECKSUM)).isEqualTo(Verdict.UNKNOWN);
    EpochAudit second = audits.stream().filter(a -> a.epoch() == fixed).findFirst().orElseThrow();
    assertThat(second.failed()).isEmpty();
    assertThat(second.end()).isNull();
    EpochAudit prom = audits.stream().filter(a -> a.epoch() == promOnly).findFirst().orElseThrow();
    assertThat(prom.verdict(Check.POOL_VS_CONTEXT)).isEqualTo(Verdict.OK);
    assertThat(prom.verdict(Check.ENGINE_VERSION)).isEqualTo(Verdict.UNKNOWN);
  }

  private static ConfigEpoch epoch(String node, long start, Long pool, Long context, String version, Boolean canary,
      Boolean checksum, Boolean deferred) {
    return new ConfigEpoch(node, NodeRole.PREFILL, start, pool, context, 64, version, null, null, null, canary,
        checksum, deferred, "sglang-log", node + ".log", 1);
  }
}

package io.kvscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.analyzers.ConfigAudit;
import io.kvscope.analysis.analyzers.VulnerableWindows;
import io.kvscope.analysis.finding.Finding;
import io.kvscope.analysis.finding.FindingKind;
import io.kvscope.analysis.impact.Window;
import io.kvscope.ingest.record.NodeRole;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigAuditTest {

  @TempDir Path tmp;

  @Test
  void aContextRaiseAbovePoolOpensAWindowThatTheFixCloses() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"))
        .epoch("decode-0", NodeRole.DECODE, "2026-08-20T00:00:00Z", 681_280, 131_072, "0.5.21")
        .epoch("decode-0", NodeRole.DECODE, "2026-08-27T09:00:00Z", 681_280, 1_048_576, "0.5.21")
        .epoch("decode-0", NodeRole.DECODE, "2026-09-01T00:00:00Z", 681_280, 1_048_576, "0.5.21")
        .epoch("decode-0", NodeRole.DECODE, "2026-09-09T12:00:00Z", 681_280, 1_048_576, "0.5.22")
        .epoch("decode-1", NodeRole.DECODE, "2026-08-27T09:00:00Z", 681_280, 1_048_576, "0.5.21");

    List<Finding> findings = new ArrayList<>();
    List<Window> windows;
    try (var search = index.open()) {
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults());
      new ConfigAudit().analyze(context, findings::add);
      windows = VulnerableWindows.of(context.epochs(), context.clocks(), "0.5.22");
    }

    assertThat(windows).hasSize(2);
    Window closed = windows.get(0);
    assertThat(closed.node()).isEqualTo("decode-0");
    assertThat(closed.start()).isEqualTo(Instant.parse("2026-08-27T09:00:00Z"));
    assertThat(closed.end()).as("the restart on 09-01 changed nothing; the upgrade closed it")
        .isEqualTo(Instant.parse("2026-09-09T12:00:00Z"));
    assertThat(windows.get(1).node()).isEqualTo("decode-1");
    assertThat(windows.get(1).open()).as("decode-1 was never fixed: not over").isTrue();
    assertThat(findings).filteredOn(f -> f.kind() == FindingKind.CONFIG_POOL_BELOW_CONTEXT).hasSize(4);
    assertThat(findings).filteredOn(f -> f.kind() == FindingKind.CONFIG_UNPATCHED_ENGINE).hasSize(4);
    assertThat(findings).filteredOn(f -> f.kind() == FindingKind.CONFIG_MISSING_SAFEGUARD).hasSize(5)
        .allSatisfy(f -> assertThat(f.evidence().get("missing")).isEqualTo(List.of("kv_canary", "kv_checksum")));
  }
}

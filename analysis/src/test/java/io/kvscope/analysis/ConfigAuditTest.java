package io.kvscope.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.analyzers.ConfigAudit;
import io.kvscope.analysis.analyzers.VulnerableWindows;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
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
        .allSatisfy(f -> assertThat(((Evidence.Config) f.evidence()).missing()).isEqualTo(List.of("kv_canary", "kv_checksum")));
  }

  /** Two prefill nodes whose pool is below context on a release a record calls patched; prefill-0 restarts on 09-09. */
  private TestIndex claimedPatched() {
    return new TestIndex(tmp.resolve("index"))
        .epoch("prefill-0", NodeRole.PREFILL, "2026-08-27T09:00:00Z", 681_280, 1_048_576, "0.5.22")
        .epoch("prefill-0", NodeRole.PREFILL, "2026-09-09T12:00:00Z", 681_280, 1_048_576, "0.5.22")
        .epoch("prefill-1", NodeRole.PREFILL, "2026-08-27T09:00:00Z", 681_280, 1_048_576, "0.5.22");
  }

  @Test
  void aPatchedClaimClosesNoWindowWhoseNodeShowsTheMechanismInIt() throws Exception {
    TestIndex index = claimedPatched();
    Finding overLength = new Finding("over_length_accepted:gw-1", FindingKind.OVER_LENGTH_ACCEPTED,
        io.kvscope.model.finding.Confidence.CONFIRMED, "gw-1", "rid-1", "org-1",
        Instant.parse("2026-09-01T10:00:00Z"), "prefill-0", "decode-0", List.of(), java.util.Map.of());
    List<Window> windows;
    try (var search = index.open()) {
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults());
      windows = VulnerableWindows.of(context.epochs(), context.clocks(), "0.5.22", List.of(overLength), List.of());
    }

    assertThat(windows).as("prefill-1 shows nothing: the claim stands there").singleElement().satisfies(w -> {
      assertThat(w.node()).isEqualTo("prefill-0");
      assertThat(w.start()).isEqualTo(Instant.parse("2026-08-27T09:00:00Z"));
      assertThat(w.end()).as("the next epoch shows no mechanism").isEqualTo(Instant.parse("2026-09-09T12:00:00Z"));
      assertThat(w.reason()).contains("CONFLICT: a deployment record says engine 0.5.22")
          .contains("but the node's own logs show over-length prompt accepted at 2026-09-01T10:00:00Z (gw-1)");
    });
  }

  @Test
  void aFailedKvTransferTheNodeLoggedKeepsOpenTheWindowAPatchedClaimWouldClose() throws Exception {
    TestIndex index = claimedPatched()
        // as the SGLang reader reads `Prefill transfer failed for request rank=0 req.rid=... req.bootstrap_room=...`
        .add(new io.kvscope.ingest.record.EngineEvent(io.kvscope.ingest.record.EngineEvent.Kind.TRANSFER_FAILED,
            "prefill-0", NodeRole.PREFILL, "rid-f", 42L, TestIndex.at("2026-09-01T10:00:00Z"), null, null, null, null,
            null, null, null, null, null, "Prefill transfer failed: KVTransferError(bootstrap_room=42): Aborted",
            "prefill-0.log", 77))
        // a decode node's failure is its own node's, not a prefill window's
        .add(new io.kvscope.ingest.record.EngineEvent(io.kvscope.ingest.record.EngineEvent.Kind.BOOTSTRAP_FAILED,
            "decode-1", NodeRole.DECODE, "rid-g", 43L, TestIndex.at("2026-09-01T11:00:00Z"), null, null, null, null,
            null, null, null, null, null, "Decode bootstrap failed", "decode-1.log", 5));
    List<Window> withFailures;
    List<Window> without;
    try (var search = index.open()) {
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults());
      assertThat(context.failedTransfers()).extracting(io.kvscope.ingest.record.EngineEvent::rid)
          .containsExactlyInAnyOrder("rid-f", "rid-g");
      withFailures = VulnerableWindows.of(context.epochs(), context.clocks(), "0.5.22", List.of(),
          context.failedTransfers());
      without = VulnerableWindows.of(context.epochs(), context.clocks(), "0.5.22", List.of(), List.of());
    }

    assertThat(without).as("the claim alone closes every window").isEmpty();
    assertThat(withFailures).singleElement().satisfies(w -> {
      assertThat(w.node()).isEqualTo("prefill-0");
      assertThat(w.start()).isEqualTo(Instant.parse("2026-08-27T09:00:00Z"));
      assertThat(w.end()).isEqualTo(Instant.parse("2026-09-09T12:00:00Z"));
      assertThat(w.reason()).contains("CONFLICT: a deployment record says engine 0.5.22")
          .contains("but the node's own logs show a failed KV transfer at 2026-09-01T10:00:00Z (rid-f)");
    });
  }

  @Test
  void everyConfigFindingIsAboutExactlyOneOfTheEpochsTheAuditJudged() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"))
        .epoch("prefill-0", NodeRole.PREFILL, "2026-08-20T00:00:00Z", 681_280, 1_048_576, "0.5.21")
        .epoch("prefill-0", NodeRole.PREFILL, "2026-09-09T12:00:00Z", 1_400_000, 1_048_576, "0.5.22")
        .add(new io.kvscope.ingest.record.ConfigEpoch("prefill-0", NodeRole.PREFILL, TestIndex.at("2026-08-25T00:00:00Z"),
            681_280L, 1_048_576L, 64, null, "m", "m", null, null, null, null, "prometheus", "metrics.prom", 3))
        .add(new io.kvscope.ingest.record.ConfigEpoch("decode-7", NodeRole.DECODE, TestIndex.at("2026-08-26T00:00:00Z"),
            681_280L, 1_048_576L, 64, null, "m", "m", null, null, null, null, "prometheus", "metrics.prom", 4));

    List<Finding> findings = new ArrayList<>();
    List<NodeEpoch> epochs;
    try (var search = index.open()) {
      AnalysisContext context = new AnalysisContext(search, AnalysisOptions.defaults());
      new ConfigAudit().analyze(context, findings::add);
      epochs = NodeEpoch.all(context.epochs(), context.clocks());
    }

    // prefill-0 has logs, so its scrape is no epoch; decode-7 has only the scrape, which stands.
    assertThat(epochs).extracting(e -> e.epoch().node() + "@" + e.start())
        .containsExactly("decode-7@2026-08-26T00:00:00Z", "prefill-0@2026-08-20T00:00:00Z",
            "prefill-0@2026-09-09T12:00:00Z");
    assertThat(epochs.get(1).end()).isEqualTo(epochs.get(2).start());
    assertThat(epochs.get(2).end()).isNull();
    assertThat(findings).isNotEmpty().allSatisfy(f ->
        assertThat(epochs.stream().filter(e -> e.isAbout(f)).count()).as(f.id()).isEqualTo(1));
    assertThat(findings).filteredOn(f -> epochs.get(2).isAbout(f)).extracting(Finding::kind)
        .containsExactly(FindingKind.CONFIG_MISSING_SAFEGUARD);
  }

  @Test
  void epochsArePutOnTheGatewaysClock() {
    var first = new io.kvscope.ingest.record.ConfigEpoch("decode-0", NodeRole.DECODE, TestIndex.at("2026-08-27T09:00:00Z"),
        681_280L, 1_048_576L, 64, "0.5.21", "m", "m", null, null, null, null, "sglang-log", "decode-0.log", 1);
    var second = new io.kvscope.ingest.record.ConfigEpoch("decode-0", NodeRole.DECODE, TestIndex.at("2026-09-09T12:00:00Z"),
        681_280L, 1_048_576L, 64, "0.5.22", "m", "m", null, null, null, null, "sglang-log", "decode-0.log", 9);

    // decode-0's clock runs 90 s ahead of the gateway's.
    List<NodeEpoch> epochs = NodeEpoch.of(List.of(first, second),
        new io.kvscope.index.nodes.NodeClocks(java.util.Map.of("decode-0", 90_000L)));

    assertThat(epochs).extracting(NodeEpoch::start)
        .containsExactly(Instant.parse("2026-08-27T08:58:30Z"), Instant.parse("2026-09-09T11:58:30Z"));
    assertThat(epochs.get(0).end()).isEqualTo(epochs.get(1).start());
  }
}

package io.kvscope.index.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.record.AliasOrigin;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeAlias;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.record.VersionOrigin;
import io.kvscope.ingest.record.VersionRecord;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineVersionsTest {

  private static long at(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  private static ConfigEpoch epoch(String node, String start) {
    return new ConfigEpoch(node, NodeRole.PREFILL, at(start), 681_280L, 1_048_576L, 64, null, null, null, null,
        false, false, null, "sglang-log", node + ".log", 1);
  }

  private static VersionRecord record(String node, String version, String from, String to, VersionOrigin origin) {
    return new VersionRecord(node, false, "sglang", version, version == null ? "lmsysorg/sglang:latest"
        : "lmsysorg/sglang:v" + version + "-cu126", from == null ? null : at(from), to == null ? null : at(to),
        origin, "records", 7);
  }

  private static List<ConfigEpoch> resolve(List<VersionRecord> records, List<ConfigEpoch> epochs) {
    return new EngineVersions(records, NodeIdentity.none()).resolve(epochs.get(0).node(), epochs, t -> t);
  }

  private static final List<ConfigEpoch> THREE_STARTS = List.of(
      epoch("p0", "2026-08-20T00:00:00Z"),
      epoch("p0", "2026-08-27T09:40:00Z"),
      epoch("p0", "2026-09-09T15:10:30Z"));

  @Test
  void withoutARecordEveryEpochStaysUnknown() {
    assertThat(resolve(List.of(), THREE_STARTS)).allSatisfy(e -> {
      assertThat(e.engineVersion()).isNull();
      assertThat(e.versionSource()).isNull();
    });
  }

  @Test
  void manifestRangesCoverTheEpochsThatStartedInThemAndARestartSlightlyEarlyStillCounts() {
    List<ConfigEpoch> out = resolve(List.of(
        record("p0", "0.5.19", "2026-08-20T00:00:00Z", "2026-09-09T15:11:00Z", VersionOrigin.MANIFEST),
        record("p0", "0.5.22", "2026-09-09T15:11:00Z", null, VersionOrigin.MANIFEST)), THREE_STARTS);

    assertThat(out).extracting(ConfigEpoch::engineVersion).containsExactly("0.5.19", "0.5.19", "0.5.22");
    assertThat(out).allSatisfy(e -> assertThat(e.versionSource().dated()).isTrue());
  }

  @Test
  void aPodStatusSpeaksOnlyForTheProcessThatStartedWithItsContainer() {
    // snapshot taken on 09-05: the container started 08-27; the 09-09 restart came later and is not covered
    List<ConfigEpoch> out = resolve(List.of(
        record("p0", "0.5.19", "2026-08-27T09:39:53Z", null, VersionOrigin.POD_STATUS)), THREE_STARTS);

    assertThat(out).extracting(ConfigEpoch::engineVersion).containsExactly(null, "0.5.19", null);
  }

  @Test
  void aServerInfoSpeaksForTheProcessRunningWhenItWasSavedUndated() {
    List<ConfigEpoch> out = resolve(List.of(
        record("p0", "0.5.19", "2026-09-01T08:00:00Z", null, VersionOrigin.SERVER_INFO)), THREE_STARTS);

    assertThat(out).extracting(ConfigEpoch::engineVersion).containsExactly(null, "0.5.19", null);
    assertThat(out.get(1).versionSource().dated()).isFalse();
  }

  @Test
  void aTagWithoutAReleaseLeavesTheVersionUnknownButCitesTheRecordAndAnotherRecordCanStillTell() {
    List<ConfigEpoch> silent = resolve(List.of(
        record("p0", null, "2026-08-27T09:39:53Z", null, VersionOrigin.POD_STATUS)), THREE_STARTS);
    assertThat(silent.get(1).engineVersion()).isNull();
    assertThat(silent.get(1).versionSource().describe()).contains("lmsysorg/sglang:latest names no release");

    List<ConfigEpoch> told = resolve(List.of(
        record("p0", null, "2026-08-27T09:39:53Z", null, VersionOrigin.POD_STATUS),
        record("p0", "0.5.19", null, null, VersionOrigin.MANIFEST)), THREE_STARTS);
    assertThat(told).extracting(ConfigEpoch::engineVersion).containsExactly("0.5.19", "0.5.19", "0.5.19");
  }

  @Test
  void theMostDirectRecordWinsAndADisagreementIsNoted() {
    List<ConfigEpoch> out = resolve(List.of(
        record("p0", "0.5.21", null, null, VersionOrigin.MANIFEST),
        record("p0", "0.5.19", "2026-08-27T09:39:53Z", null, VersionOrigin.POD_STATUS)), THREE_STARTS);

    assertThat(out.get(1).engineVersion()).isEqualTo("0.5.19");
    assertThat(out.get(1).versionSource().describe()).contains("disagreeing").contains("0.5.21");
  }

  @Test
  void recordsFindTheirNodeThroughItsAliasesAndWorkloadTemplatesThroughPodNames() {
    NodeIdentity identity = NodeIdentity.of(List.of(
        new NodeAlias("sglang-prefill-1", "10.20.1.11:30000", AliasOrigin.ENGINE_ARGS, "log", 1)));
    List<ConfigEpoch> epochs = List.of(epoch("sglang-prefill-1", "2026-08-20T00:00:00Z"));
    EngineVersions byAddress = new EngineVersions(List.of(
        record("10.20.1.11:30000", "0.5.21", null, null, VersionOrigin.MANIFEST)), identity);
    assertThat(byAddress.resolve("sglang-prefill-1", epochs, t -> t).get(0).engineVersion()).isEqualTo("0.5.21");

    VersionRecord template = new VersionRecord("sglang-prefill", true, "sglang", "0.4.6.post1", null, null, null,
        VersionOrigin.WORKLOAD_TEMPLATE, "workloads.yaml", 33);
    ConfigEpoch byTemplate = new EngineVersions(List.of(template), identity).resolve("sglang-prefill-1", epochs, t -> t).get(0);
    assertThat(byTemplate.engineVersion()).isEqualTo("0.4.6.post1");
    assertThat(byTemplate.versionSource().dated()).isFalse();
    assertThat(new EngineVersions(List.of(template), identity).resolve("sglang-prefill-one", List.of(
        epoch("sglang-prefill-one", "2026-08-20T00:00:00Z")), t -> t).get(0).engineVersion()).isNull();
  }

  @Test
  void disagreeingVersionsAreListedButAnUpgradesBoundaryIsNoDisagreement() {
    List<ConfigEpoch> out = resolve(List.of(
        record("p0", "0.5.19", "2026-08-20T00:00:00Z", "2026-09-09T15:11:00Z", VersionOrigin.MANIFEST),
        record("p0", "0.5.22", "2026-09-09T15:11:00Z", null, VersionOrigin.MANIFEST),
        record("p0", "0.5.22", "2026-08-27T09:39:00Z", null, VersionOrigin.POD_STATUS)), THREE_STARTS);

    assertThat(out.get(1).engineVersion()).isEqualTo("0.5.22");
    assertThat(out.get(1).versionSource().disagreeing()).as("the manifest says 0.5.19 then").containsExactly("0.5.19");
    assertThat(out.get(2).engineVersion()).isEqualTo("0.5.22");
    assertThat(out.get(2).versionSource().disagreeing()).as("15:10:30 is within the slack of the 15:11 upgrade").isEmpty();
  }
}

package io.kvscope.index.nodes;

import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeActivity;
import io.kvscope.ingest.record.NodeRole;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which logged starts are no restart ({@link ShortLogs}), on plain epochs and line counts. */
class ShortLogsTest {

  private static final long HOUR = NodeActivity.HOUR_MS;
  private static final long DAY0 = Instant.parse("2026-08-27T00:00:00Z").toEpochMilli();

  /** The node's own log: 200 lines an hour for {@code hours} hours from DAY0, its start at DAY0. */
  private static List<NodeActivity> ownLog(String node, String file, int hours) {
    List<NodeActivity> counted = new ArrayList<>();
    for (int h = 0; h < hours; h++) {
      counted.add(new NodeActivity(node, NodeRole.PREFILL, DAY0 + h * HOUR, 200, file, 1 + 200L * h));
    }
    return counted;
  }

  private static ConfigEpoch start(String node, long at, Long pool, String file, String source) {
    return new ConfigEpoch(node, NodeRole.PREFILL, at, pool, 1_048_576L, 64, null, null, null, null, null, null, null,
        source, file, 1);
  }

  private static ConfigEpoch start(String node, long at, Long pool, String file) {
    return start(node, at, pool, file, "sglang-log");
  }

  @Test
  void aFewLinesInsideTheNodesOwnLogAreNoRestartAndSaySo() {
    List<NodeActivity> hours = new ArrayList<>(ownLog("prefill-0", "engine/prefill-0.log", 48));
    long mid = DAY0 + 24 * HOUR + 600_000;
    hours.add(new NodeActivity("prefill-0", NodeRole.PREFILL, DAY0 + 24 * HOUR, 2, "x/prefill-0.log", 1));

    Epochs epochs = new Epochs(List.of(start("prefill-0", DAY0, 681_280L, "engine/prefill-0.log"),
        start("prefill-0", mid, 2_000_000L, "x/prefill-0.log")), NodeIdentity.none(),
        new EngineVersions(List.of(), NodeIdentity.none()), NodeClocks.none(), ShortLogs.of(hours, NodeIdentity.none()));

    assertThat(epochs.byNode().get("prefill-0")).extracting(ConfigEpoch::poolTokens).containsExactly(681_280L);
    assertThat(epochs.at("prefill-0", mid + 1).poolTokens()).as("requests after it are served by the node's epoch")
        .isEqualTo(681_280L);
    assertThat(epochs.setAside()).singleElement().satisfies(a -> {
      assertThat(a.epoch().start()).isEqualTo(mid);
      assertThat(a.why()).isEqualTo("x/prefill-0.log (2 lines) logs a start of prefill-0 at 2026-08-28T00:10:00Z"
          + " (node clock) while engine/prefill-0.log (9600 lines) goes on logging the node from 2026-08-27T00:00:00Z"
          + " to the hour of 2026-08-28T23:00:00Z: assumed no restart, its config not used");
    });
  }

  @Test
  void aStartInTheOldLogsLastHourIsARestartTheOldLogEndedThere() {
    List<NodeActivity> hours = new ArrayList<>(ownLog("prefill-0", "prefill-0.log", 24));
    long restart = DAY0 + 23 * HOUR + 1_800_000;
    hours.add(new NodeActivity("prefill-0", NodeRole.PREFILL, DAY0 + 23 * HOUR, 3, "prefill-0.restarted.log", 1));

    assertThat(ShortLogs.of(hours, NodeIdentity.none()).setAside("prefill-0",
        start("prefill-0", restart, 2_000_000L, "prefill-0.restarted.log"))).isNull();
  }

  @Test
  void aLogOfMoreThanAFewLinesIsARealRun() {
    List<NodeActivity> hours = new ArrayList<>(ownLog("prefill-0", "prefill-0.log", 48));
    hours.add(new NodeActivity("prefill-0", NodeRole.PREFILL, DAY0 + 24 * HOUR, ShortLogs.MAX_LINES + 1,
        "prefill-0.second.log", 1));

    assertThat(ShortLogs.of(hours, NodeIdentity.none()).setAside("prefill-0",
        start("prefill-0", DAY0 + 24 * HOUR, 2_000_000L, "prefill-0.second.log"))).isNull();
  }

  @Test
  void theNodesFirstStartIsKeptHoweverShortItsFile() {
    // A startup banner in a short stderr file beside the long stdout file: the node's only start.
    List<NodeActivity> hours = new ArrayList<>(ownLog("prefill-0", "prefill-0.stdout.log", 48));
    hours.add(new NodeActivity("prefill-0", NodeRole.PREFILL, DAY0, 2, "prefill-0.stderr.log", 1));

    Epochs epochs = new Epochs(List.of(start("prefill-0", DAY0 + 60_000, 681_280L, "prefill-0.stderr.log")),
        NodeIdentity.none(), new EngineVersions(List.of(), NodeIdentity.none()), NodeClocks.none(),
        ShortLogs.of(hours, NodeIdentity.none()));

    assertThat(epochs.byNode().get("prefill-0")).hasSize(1);
    assertThat(epochs.setAside()).isEmpty();
  }

  @Test
  void aMetricsSnapshotIsNeverSetAsideNorCountsAsTheFirstStart() {
    List<NodeActivity> hours = new ArrayList<>(ownLog("prefill-0", "prefill-0.log", 48));
    hours.add(new NodeActivity("prefill-0", NodeRole.PREFILL, DAY0 + 24 * HOUR, 2, "prefill-0.fragment.log", 1));

    Epochs epochs = new Epochs(List.of(start("prefill-0", DAY0, 681_280L, "prefill-0.prom", ConfigEpoch.PROMETHEUS),
        start("prefill-0", DAY0 + 24 * HOUR, 2_000_000L, "prefill-0.fragment.log")), NodeIdentity.none(),
        new EngineVersions(List.of(), NodeIdentity.none()), NodeClocks.none(), ShortLogs.of(hours, NodeIdentity.none()));

    assertThat(epochs.setAside()).as("no logged start before it: nothing to end").isEmpty();
  }
}

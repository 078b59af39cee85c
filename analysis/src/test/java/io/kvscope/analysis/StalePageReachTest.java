package io.kvscope.analysis;

import static io.kvscope.analysis.TestIndex.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.analyzers.PrefillUnderrun;
import io.kvscope.model.finding.Confidence;
import io.kvscope.model.finding.Evidence;
import io.kvscope.model.finding.Finding;
import io.kvscope.model.finding.FindingKind;
import io.kvscope.ingest.record.ConfigEpoch;
import io.kvscope.ingest.record.NodeRole;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who can have leaked to whom, on small real indexes: a source started before the recipient,
 * within the horizon, on its decode node, in the same run of that node's engine, and was prefilled.
 */
class StalePageReachTest {

  @TempDir Path tmp;

  /**
   * decode-0 starts at 08:00 and restarts at 09:00; decode-1 runs throughout. The recipient decodes
   * on decode-0 at 10:00.
   */
  private TestIndex restartedNode() {
    TestIndex index = new TestIndex(tmp.resolve("index"))
        .epoch("decode-0", NodeRole.DECODE, "2026-08-28T08:00:00Z", 681_280, 1_048_576, "0.5.21")
        .epoch("decode-0", NodeRole.DECODE, "2026-08-28T09:00:00Z", 681_280, 1_048_576, "0.5.21")
        .epoch("decode-1", NodeRole.DECODE, "2026-08-28T08:00:00Z", 681_280, 1_048_576, "0.5.21");
    index.servedOn(request("before-restart", "t0", "2026-08-28T08:30:00Z", 100, 200).build(), "decode-0");
    index.servedOn(request("after-restart", "t1", "2026-08-28T09:10:00Z", 100, 200).build(), "decode-0");
    index.servedOn(request("elsewhere", "t2", "2026-08-28T09:20:00Z", 100, 200).build(), "decode-1");
    index.servedOn(request("recipient", "t9", "2026-08-28T10:00:00Z", 100, 200).build(), "decode-0");
    index.servedOn(request("same-instant", "t3", "2026-08-28T10:00:00Z", 100, 200).build(), "decode-0");
    index.servedOn(request("later", "t4", "2026-08-28T10:30:00Z", 100, 200).build(), "decode-0");
    // No engine line names these two: their decode node is unknown.
    index.add(request("unknown-before", "t5", "2026-08-28T08:45:00Z", 100, 200).build());
    index.add(request("unknown-after", "t6", "2026-08-28T09:15:00Z", 100, 200).build());
    return index;
  }

  @Test
  void anEarlierRequestOnTheSameNodeInTheSameEngineRunIsWithinReach() throws Exception {
    Reach reach = reach(restartedNode(), AnalysisOptions.defaults());

    assertThat(reach.reaches("after-restart", "recipient")).isTrue();
    assertThat(reach.sameNode("after-restart", "recipient")).isTrue();
    assertThat(reach.sameRun("after-restart", "recipient")).isTrue();
  }

  @Test
  void aRequestBeforeTheDecodeEngineRestartIsOutOfReach() throws Exception {
    Reach reach = reach(restartedNode(), AnalysisOptions.defaults());

    assertThat(reach.reaches("before-restart", "recipient")).isFalse();
    assertThat(reach.sameNode("before-restart", "recipient")).isTrue();
    assertThat(reach.sameRun("before-restart", "recipient")).isFalse();
    // Both before the restart: the same run.
    assertThat(reach.reaches("before-restart", "unknown-before")).isTrue();
  }

  @Test
  void aRequestDecodedOnAnotherNodeIsOutOfReach() throws Exception {
    Reach reach = reach(restartedNode(), AnalysisOptions.defaults());

    assertThat(reach.reaches("elsewhere", "recipient")).isFalse();
    assertThat(reach.sameNode("elsewhere", "recipient")).isFalse();
  }

  @Test
  void neitherALaterNorASimultaneousRequestNorTheRecipientItselfIsASource() throws Exception {
    Reach reach = reach(restartedNode(), AnalysisOptions.defaults());

    assertThat(reach.reaches("later", "recipient")).isFalse();
    assertThat(reach.reaches("same-instant", "recipient")).isFalse();
    assertThat(reach.reaches("recipient", "same-instant")).isFalse();
    assertThat(reach.reaches("recipient", "recipient")).isFalse();
    assertThat(reach.reaches("recipient", "later")).isTrue();
  }

  /** With one side's decode node unknown, the other's restarts still decide. */
  @Test
  void aSourceOfUnknownNodeStaysPossibleUnlessTheRecipientsEngineRestartedSince() throws Exception {
    Reach reach = reach(restartedNode(), AnalysisOptions.defaults());

    assertThat(reach.reaches("unknown-after", "recipient")).isTrue();
    assertThat(reach.sameNode("unknown-after", "recipient")).isFalse();
    assertThat(reach.reaches("unknown-before", "recipient")).isFalse();
    assertThat(reach.reaches("unknown-before", "unknown-after")).isTrue(); // nothing known: possible
  }

  @Test
  void aSourceExactlyAtTheHorizonIsWithinReachAndOneMillisecondBeyondIsNot() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.servedOn(request("too-old", "t1", "2026-08-28T08:59:59.999Z", 100, 200).build(), "decode-0");
    index.servedOn(request("an-hour-before", "t2", "2026-08-28T09:00:00Z", 100, 200).build(), "decode-0");
    index.servedOn(request("recipient", "t9", "2026-08-28T10:00:00Z", 100, 200).build(), "decode-0");
    AnalysisOptions oneHour = new AnalysisOptions(null, null, null, 16, Duration.ofHours(1), 0.5, 0.25, 8_192,
        AnalysisOptions.AUTOMATIC_THREADS);

    Reach reach = reach(index, oneHour);

    assertThat(reach.reaches("an-hour-before", "recipient")).isTrue();
    assertThat(reach.reaches("too-old", "recipient")).isFalse();
  }

  /** Its pool slots held only a placeholder: a request the engine never prefilled left nothing of its own. */
  @Test
  void aRequestTheEngineNeverPrefilledIsNoSource() throws Exception {
    Reach reach = reach(restartedNode(), AnalysisOptions.defaults(), "gw-after-restart");

    assertThat(reach.reaches("after-restart", "recipient")).isFalse();
    assertThat(reach.reaches("after-restart", "later")).isFalse();
    assertThat(reach.reaches("unknown-after", "recipient")).isTrue(); // the others are unaffected
    assertThat(reach.neverPrefilled()).containsExactly("gw-after-restart");
  }

  /**
   * A refused request was turned away before its prefill (SGLang's length check answers 400, a
   * gateway refuses before forwarding): none of it reached a pool. A timeout or a client that hung
   * up may come after the prefill, so those stay possible.
   */
  @Test
  void aRequestRefusedBeforeItsPrefillIsNoSource() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"));
    index.add(request("refused-400", "t1", "2026-08-28T09:10:00Z", 400_000, 400).build());
    index.add(request("rate-limited", "t2", "2026-08-28T09:11:00Z", 100, 429).build());
    index.servedOn(request("refused-on-node", "t3", "2026-08-28T09:12:00Z", 100, 413).build(), "decode-0");
    index.servedOn(request("timed-out", "t4", "2026-08-28T09:13:00Z", 100, 408).build(), "decode-0");
    index.servedOn(request("hung-up", "t5", "2026-08-28T09:14:00Z", 100, 499).build(), "decode-0");
    index.servedOn(request("failed", "t6", "2026-08-28T09:15:00Z", 100, 500).build(), "decode-0");
    index.servedOn(request("served", "t7", "2026-08-28T09:16:00Z", 100, 200).build(), "decode-0");
    index.servedOn(request("recipient", "t9", "2026-08-28T10:00:00Z", 100, 200).build(), "decode-0");

    Reach reach = reach(index, AnalysisOptions.defaults());

    assertThat(reach.reaches("refused-400", "recipient")).isFalse();
    assertThat(reach.reaches("rate-limited", "recipient")).isFalse();
    assertThat(reach.reaches("refused-on-node", "recipient")).isFalse();
    assertThat(reach.reaches("timed-out", "recipient")).isTrue();
    assertThat(reach.reaches("hung-up", "recipient")).isTrue();
    assertThat(reach.reaches("failed", "recipient")).isTrue();
    assertThat(reach.reaches("served", "recipient")).isTrue();
    assertThat(reach.neverPrefilled()).isEmpty(); // refused is not "decoded over stale pages"
  }

  @Test
  void aMetricsSnapshotIsNotARestart() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"))
        .epoch("decode-0", NodeRole.DECODE, "2026-08-28T08:00:00Z", 681_280, 1_048_576, "0.5.21")
        .epoch("decode-0", NodeRole.DECODE, "2026-08-28T09:00:00Z", 681_280, 1_048_576, "0.5.21")
        .epoch("decode-0", NodeRole.DECODE, "2026-08-28T09:30:00Z", 681_280, 1_048_576, "0.5.21")
        .epoch("decode-1", NodeRole.DECODE, "2026-08-28T08:00:00Z", 681_280, 1_048_576, "0.5.21")
        .add(new ConfigEpoch("decode-1", NodeRole.DECODE, TestIndex.at("2026-08-28T09:00:00Z"), 681_280L, 1_048_576L,
            64, "0.5.21", "m", "m", "mooncake", false, false, null, ConfigEpoch.PROMETHEUS, "metrics.prom", 1));
    index.servedOn(request("source", "t1", "2026-08-28T08:30:00Z", 100, 200).build(), "decode-1");
    index.servedOn(request("recipient", "t2", "2026-08-28T10:00:00Z", 100, 200).build(), "decode-1");
    index.servedOn(request("on-zero", "t3", "2026-08-28T10:00:00Z", 100, 200).build(), "decode-0");

    Reach reach = reach(index, AnalysisOptions.defaults());

    assertThat(reach.reaches("source", "recipient")).isTrue();
    assertThat(reach.stale.restartCounts()).containsExactlyInAnyOrderEntriesOf(Map.of("decode-0", 2, "decode-1", 0));
  }

  /** The reach of an index's requests, addressed by the ids given to {@link TestIndex#request}. */
  private record Reach(StalePageReach stale, Mechanisms mechanisms, Map<String, Integer> docs, Map<Integer, String> ids) {

    boolean reaches(String source, String recipient) {
      return stale.reaches(doc(source), doc(recipient));
    }

    boolean sameNode(String source, String recipient) {
      return stale.sameNode(doc(source), doc(recipient));
    }

    boolean sameRun(String source, String recipient) {
      return stale.sameRun(doc(source), doc(recipient));
    }

    java.util.List<String> neverPrefilled() {
      return mechanisms.neverPrefilled().stream().mapToObj(ids::get).toList();
    }

    private int doc(String id) {
      Integer doc = docs.get("gw-" + id);
      assertThat(doc).as("request " + id).isNotNull();
      return doc;
    }
  }

  /** Builds the reach as an analyzer does, with {@code neverPrefilled} flagged as prefill underruns. */
  private static Reach reach(TestIndex index, AnalysisOptions options, String... neverPrefilled) throws IOException {
    try (var search = index.open()) {
      AnalysisContext context = new AnalysisContext(search, options);
      for (String requestId : neverPrefilled) {
        context.record(PrefillUnderrun.NAME, new Finding("prefill_underrun:" + requestId, FindingKind.PREFILL_UNDERRUN,
            Confidence.CONFIRMED, requestId, null, null, null, null, null, null, Evidence.Other.NONE));
      }
      Reach[] built = new Reach[1];
      context.run(new Analyzer() {
        @Override
        public String name() {
          return "reach-probe";
        }

        @Override
        public String description() {
          return "builds a StalePageReach";
        }

        @Override
        public Set<String> requires() {
          return Mechanisms.REQUIRED;
        }

        @Override
        public void analyze(AnalysisContext c, Consumer<Finding> findings) throws IOException {
          RequestColumns columns = RequestColumns.load(c);
          Map<String, Integer> docs = new HashMap<>();
          Map<Integer, String> ids = new HashMap<>();
          for (int doc = 0; doc < c.reader().maxDoc(); doc++) {
            if (columns.isRequest(doc)) {
              docs.put(columns.requestId(doc), doc);
              ids.put(doc, columns.requestId(doc));
            }
          }
          Mechanisms mechanisms = Mechanisms.of(c);
          built[0] = new Reach(StalePageReach.of(c, columns, mechanisms), mechanisms, docs, ids);
        }
      }, finding -> {});
      return built[0];
    }
  }
}

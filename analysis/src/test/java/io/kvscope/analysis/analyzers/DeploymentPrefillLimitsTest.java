package io.kvscope.analysis.analyzers;

import static io.kvscope.analysis.TestIndex.at;
import static io.kvscope.analysis.TestIndex.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.kvscope.analysis.AnalysisContext;
import io.kvscope.analysis.AnalysisOptions;
import io.kvscope.analysis.RequestRow;
import io.kvscope.analysis.TestIndex;
import io.kvscope.model.join.EngineFacts;
import io.kvscope.index.IndexSearch;
import io.kvscope.ingest.record.NodeRole;
import io.kvscope.ingest.record.RequestRecord;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limit a request whose own prefill node is unknown met at most: the largest among the prefill
 * nodes that feed its decode node (else its deployment), learned from requests whose nodes are known.
 *
 * <p>prefill-a and prefill-b feed decode-0 in dep1; prefill-c feeds decode-1 in dep2; prefill-d
 * feeds decode-2 and left no engine log. Limits (the smaller of pool and context): prefill-a 100,000
 * until it restarts at 12:00 with 300,000; prefill-b 120,000; prefill-c 50,000.
 */
class DeploymentPrefillLimitsTest {

  @TempDir Path tmp;

  private IndexSearch search;
  private DeploymentPrefillLimits limits;

  @BeforeEach
  void learn() throws Exception {
    TestIndex index = new TestIndex(tmp.resolve("index"))
        .epoch("prefill-a", NodeRole.PREFILL, "2026-08-28T08:00:00Z", 100_000, 200_000, "0.5.21")
        .epoch("prefill-a", NodeRole.PREFILL, "2026-08-28T12:00:00Z", 300_000, 400_000, "0.5.21")
        .epoch("prefill-b", NodeRole.PREFILL, "2026-08-28T08:00:00Z", 150_000, 120_000, "0.5.21")
        .epoch("prefill-c", NodeRole.PREFILL, "2026-08-28T08:00:00Z", 50_000, 60_000, "0.5.21");
    index.add(served("r1", "prefill-a", "decode-0", "dep1"));
    index.add(served("r2", "prefill-b", "decode-0", "dep1"));
    index.add(served("r3", "prefill-c", "decode-1", "dep2"));
    index.add(served("r4", "prefill-d", "decode-2", "dep3"));
    // Its prefill node unknown: it teaches nothing (else decode-1 and dep1 would gain a node).
    index.add(served("r5", null, "decode-1", "dep1"));
    search = index.open();
    limits = DeploymentPrefillLimits.learn(new AnalysisContext(search, AnalysisOptions.defaults()));
  }

  @AfterEach
  void close() throws Exception {
    search.close();
  }

  @Test
  void theLargestLimitAmongTheDecodeNodesPrefillNodesAtTheTime() {
    RequestRow morning = row("decode-0", "dep1", "2026-08-28T10:00:00Z");
    RequestRow afternoon = row("decode-0", "dep1", "2026-08-28T13:00:00Z");

    assertThat(limits.candidates(morning)).containsExactlyInAnyOrder("prefill-a", "prefill-b");
    assertThat(limits.largestFor(morning)).isEqualTo(120_000L);
    assertThat(limits.largestFor(afternoon)).isEqualTo(300_000L); // prefill-a restarted with a larger pool
  }

  @Test
  void theDecodeNodeDecidesBeforeTheDeployment() {
    RequestRow row = row("decode-1", "dep1", "2026-08-28T10:00:00Z");

    assertThat(limits.candidates(row)).containsExactly("prefill-c");
    assertThat(limits.largestFor(row)).isEqualTo(50_000L);
  }

  @Test
  void withoutAKnownDecodeNodeTheDeploymentsPrefillNodesCount() {
    assertThat(limits.candidates(row(null, "dep2", "2026-08-28T10:00:00Z"))).containsExactly("prefill-c");
    assertThat(limits.candidates(row("decode-9", "dep1", "2026-08-28T10:00:00Z")))
        .containsExactlyInAnyOrder("prefill-a", "prefill-b");
    assertThat(limits.largestFor(row("decode-9", "dep1", "2026-08-28T10:00:00Z"))).isEqualTo(120_000L);
  }

  @Test
  void withNoCandidateThereIsNoLimit() {
    assertThat(limits.candidates(row(null, null, "2026-08-28T10:00:00Z"))).isEmpty();
    assertThat(limits.candidates(row("decode-9", "dep9", "2026-08-28T10:00:00Z"))).isEmpty();
    assertThat(limits.largestFor(row("decode-9", "dep9", "2026-08-28T10:00:00Z"))).isNull();
  }

  /** The largest is only known when every candidate's limit is: one unknown could be the largest. */
  @Test
  void aCandidateWhoseLimitIsUnknownThenLeavesNoLimit() {
    assertThat(limits.largestFor(row("decode-2", "dep3", "2026-08-28T10:00:00Z"))).isNull(); // prefill-d: no log
    assertThat(limits.largestFor(row("decode-0", "dep1", "2026-08-28T07:00:00Z"))).isNull(); // before any startup
    assertThat(limits.largestFor(row("decode-0", "dep1", null))).isNull();
  }

  private static RequestRecord served(String id, String prefill, String decode, String deployment) {
    return request(id, "t", "2026-08-28T09:00:00Z", 100, 200)
        .prefillNode(prefill).decodeNode(decode).deployment(deployment).build();
  }

  private static RequestRow row(String decodeNode, String deployment, String start) {
    return new RequestRow(0, RequestRecord.builder("gw-x").engineRid("x").tenant("t").model("m")
        .deployment(deployment).decodeNode(decodeNode).startTime(start == null ? null : at(start)).statusCode(200)
        .promptTokens(100L).completionTokens(50L).build(), EngineFacts.NONE);
  }
}
